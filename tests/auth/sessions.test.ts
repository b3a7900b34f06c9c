import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { sessionRowCallbacks } from "../../lib/auth/session-rows";
import { getSql } from "../../lib/db/client";
import { systemCtx } from "../../lib/open-ctx";
import { expireOperatorSessions } from "../../lib/retention/expire-operator-sessions";
import { PORTAL_ACCESS_GRACE_MS } from "../../lib/retention/expire-portal-access";
import { apiClient, call, type Api } from "../helpers/api";
import { createConsumer } from "../helpers/fixtures";
import { APP_ORIGIN } from "../helpers/origin";
import { portalSession } from "../helpers/portal";
import { operatorClient, signedInSession } from "../helpers/session";

/**
 * Operators' sessions as rows beside their JWTs (ADR 0047), through the real route handlers with
 * real session cookies: each sign-in is listed with its device, one can be ended, all but this one,
 * or all of another operator's by an admin — and an ended session's very next request is refused.
 */
const FIREFOX = "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const sql = () => getSql();

let api: Api;

/** One more session of the same operator, as a second browser signing in. */
async function anotherDevice(operatorId: string, userAgent?: string) {
  const { cookie, sessionId } = await signedInSession(operatorId, { userAgent });
  const as = (method: string, path: string) => call(method, path, { headers: { cookie, origin: APP_ORIGIN } });
  return { cookie, sessionId, get: (path: string) => as("GET", path), del: (path: string) => as("DELETE", path), post: (path: string) => as("POST", path) };
}

beforeAll(async () => {
  api = await apiClient();
});

describe("an operator's own sessions", () => {
  it("lists each sign-in with its device, this one marked current", async () => {
    const me = await operatorClient("viewer");
    const phone = await anotherDevice(me.operator.id, SAFARI);
    const laptop = await anotherDevice(me.operator.id, FIREFOX);
    const listed = await laptop.get("/api/v1/sessions");
    expect(listed.status, listed.text).toBe(200);
    const rows = listed.body.data as { id: string; device: string | null; current: boolean; user_agent: string | null }[];
    expect(rows.map((row) => row.id).sort()).toEqual([me.sessionId, phone.sessionId, laptop.sessionId].sort());
    expect(rows.find((row) => row.current)?.id).toBe(laptop.sessionId);
    expect(rows.filter((row) => row.current)).toHaveLength(1);
    expect(rows.find((row) => row.id === laptop.sessionId)).toMatchObject({ device: "Firefox on Linux", user_agent: FIREFOX });
    expect(rows.find((row) => row.id === phone.sessionId)?.device).toBe("Safari on iOS");
  });

  it("ends one (a viewer too: it is their own account), whose next request is refused; the others go on", async () => {
    const me = await operatorClient("viewer");
    const stolen = await anotherDevice(me.operator.id);
    expect((await stolen.get("/api/v1/consumers")).status).toBe(200);
    const ended = await me.del(`/api/v1/sessions/${stolen.sessionId}`);
    expect(ended.status, ended.text).toBe(204);
    const refused = await stolen.get("/api/v1/consumers");
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("unauthorized");
    expect((await me.get("/api/v1/consumers")).status).toBe(200);
    // Ended once is gone: a second time, and another operator's session, are 404.
    expect((await me.del(`/api/v1/sessions/${stolen.sessionId}`)).status).toBe(404);
    const other = await operatorClient("admin");
    const foreign = await me.del(`/api/v1/sessions/${other.sessionId}`);
    expect(foreign.status).toBe(404);
    expect((await other.get("/api/v1/consumers")).status).toBe(200);
  });

  it("signs out everywhere else: every other session ends, this one stays", async () => {
    const me = await operatorClient("admin");
    const devices = [await anotherDevice(me.operator.id), await anotherDevice(me.operator.id)];
    const bystander = await operatorClient("admin");
    const answer = await me.post("/api/v1/sessions/end-others");
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ ended: 2 });
    for (const device of devices) expect((await device.get("/api/v1/consumers")).status).toBe(401);
    expect((await me.get("/api/v1/consumers")).status).toBe(200);
    expect((await bystander.get("/api/v1/consumers")).status).toBe(200);
    expect((await me.get("/api/v1/sessions")).body.data.map((row: { id: string }) => row.id)).toEqual([me.sessionId]);
  });

  it("ends the session's row when Auth.js signs it out", async () => {
    const me = await operatorClient("admin");
    await sessionRowCallbacks(undefined).events.signOut({ token: { sub: me.operator.id, sid: me.sessionId } });
    expect((await me.get("/api/v1/consumers")).status).toBe(401);
  });

  it("refuses a JWT with no row (one issued before sessions had rows) and one whose row expired", async () => {
    const me = await operatorClient("admin");
    const name = "authjs.session-token";
    const rowless = `${name}=${await encode({ token: { sub: me.operator.id }, secret: process.env.AUTH_SECRET!, salt: name, maxAge: 3600 })}`;
    expect((await call("GET", "/api/v1/consumers", { headers: { cookie: rowless } })).status).toBe(401);
    await sql()`update operator_sessions set expires_at = now() - interval '1 second' where id = ${me.sessionId}`;
    expect((await me.get("/api/v1/consumers")).status).toBe(401);
  });

  it("writes last_seen_at at most once a minute", async () => {
    const me = await operatorClient("admin");
    const seen = async () => (await sql()`select last_seen_at from operator_sessions where id = ${me.sessionId}`)[0]!.last_seen_at as Date;
    await sql()`update operator_sessions set last_seen_at = now() - interval '2 minutes' where id = ${me.sessionId}`;
    const stale = await seen();
    await me.get("/api/v1/consumers");
    const touched = await seen();
    expect(touched.getTime()).toBeGreaterThan(stale.getTime() + 60_000);
    await me.get("/api/v1/consumers");
    await me.get("/api/v1/event-types");
    expect((await seen()).getTime()).toBe(touched.getTime());
  });
});

describe("an admin and another operator's sessions", () => {
  it("lists them and ends them all, audited; the operator's next request is refused", async () => {
    const admin = await operatorClient("admin");
    const target = await operatorClient("viewer");
    const second = await anotherDevice(target.operator.id, FIREFOX);
    const listed = await admin.get(`/api/v1/operators/${target.operator.id}/sessions`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((row: { id: string }) => row.id).sort()).toEqual([target.sessionId, second.sessionId].sort());
    expect(listed.body.data.every((row: { current: boolean }) => !row.current)).toBe(true);

    const ended = await admin.del(`/api/v1/operators/${target.operator.id}/sessions`);
    expect(ended.status, ended.text).toBe(200);
    expect(ended.body).toEqual({ ended: 2 });
    expect((await target.get("/api/v1/consumers")).status).toBe(401);
    expect((await second.get("/api/v1/consumers")).status).toBe(401);
    expect((await admin.get("/api/v1/consumers")).status).toBe(200);

    const [event] = await sql()`select actor_type, actor_id, data from audit_events where action = 'operator.sessions_ended' and target_id = ${target.operator.id}`;
    expect(event).toMatchObject({ actor_type: "operator", actor_id: admin.operator.id, data: { email: target.operator.email, ended: 2 } });
  });

  it("is an admin's alone: a viewer is refused, and an unknown operator is a 404", async () => {
    const viewer = await operatorClient("viewer");
    const target = await operatorClient("viewer");
    expect((await viewer.get(`/api/v1/operators/${target.operator.id}/sessions`)).status).toBe(403);
    expect((await viewer.del(`/api/v1/operators/${target.operator.id}/sessions`)).status).toBe(403);
    expect((await target.get("/api/v1/consumers")).status).toBe(200);
    const admin = await operatorClient("admin");
    expect((await admin.get("/api/v1/operators/op_nobody/sessions")).status).toBe(404);
  });
});

describe("credentials that are no operator's session", () => {
  it("refuses an API key and a portal session every sessions route, and ends nothing", async () => {
    const target = await operatorClient("admin");
    const consumer = await createConsumer(api, {}, "sessions-scope");
    const portal = await portalSession(api, consumer.uid);
    const routes: [string, string][] = [
      ["GET", "/api/v1/sessions"],
      ["DELETE", `/api/v1/sessions/${target.sessionId}`],
      ["POST", "/api/v1/sessions/end-others"],
      ["GET", `/api/v1/operators/${target.operator.id}/sessions`],
      ["DELETE", `/api/v1/operators/${target.operator.id}/sessions`],
    ];
    for (const key of [api.key, portal.token]) {
      for (const [method, path] of routes) {
        const res = await call(method, path, { key });
        expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
        expect(res.body.code).toBe("forbidden");
      }
    }
    expect((await target.get("/api/v1/consumers")).status).toBe(200);
  });
});

describe("retention", () => {
  it("removes session rows ended or expired past the grace, keeps the rest", async () => {
    const me = await operatorClient("admin");
    const [endedLongAgo, expiredLongAgo, endedJustNow] = [await anotherDevice(me.operator.id), await anotherDevice(me.operator.id), await anotherDevice(me.operator.id)];
    const long = PORTAL_ACCESS_GRACE_MS + 60_000;
    await sql()`update operator_sessions set ended_at = now() - ${long} * interval '1 millisecond' where id = ${endedLongAgo.sessionId}`;
    await sql()`update operator_sessions set expires_at = now() - ${long} * interval '1 millisecond' where id = ${expiredLongAgo.sessionId}`;
    await sql()`update operator_sessions set ended_at = now() where id = ${endedJustNow.sessionId}`;
    const done = await expireOperatorSessions({ ctx: systemCtx(), deadline: Date.now() + 10_000 });
    expect(done.removed.operator_sessions).toBeGreaterThanOrEqual(2);
    const left = (await sql()`select id from operator_sessions where operator_id = ${me.operator.id}`).map((row) => row.id as string);
    expect(left.sort()).toEqual([me.sessionId, endedJustNow.sessionId].sort());
  });
});
