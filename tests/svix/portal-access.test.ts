import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { apiClient, call } from "../helpers/api";
import { withEnv } from "../helpers/env";
import { createEndpoint } from "../helpers/fixtures";
import { linkToken } from "../helpers/portal";
import { apiError, sdkServer, SDKS, type Sdk } from "./sdks";

/**
 * authentication.appPortalAccess through the official svix SDKs: a one-time link into our portal
 * and a portal token the SDK itself can use, on its own application only.
 */
const server = sdkServer();

/** The capabilities the link's session gets, by exchanging it as the portal page does. */
async function linkCapabilities(url: string): Promise<string[]> {
  const exchanged = await call("POST", "/api/v1/portal/session", { body: { token: linkToken(url) } });
  expect(exchanged.status, exchanged.text).toBe(201);
  return exchanged.body.capabilities;
}

describe.each(SDKS.map((sdk) => [sdk.name, sdk] as const))("%s", (name, sdk: Sdk) => {
  const svix = (bearer?: string) => server.client(sdk, bearer);
  const tag = name.replace(/\W/g, "");

  it("answers a one-time portal link and a token scoped to the application", async () => {
    const mine = await svix().application.create({ name: "Mine", uid: `mine-${tag}` });
    const theirs = await svix().application.create({ name: "Theirs", uid: `theirs-${tag}` });
    const access = await svix().authentication.appPortalAccess(mine.uid!, {});
    expect(access.url).toMatch(/\/portal#token=pt_[A-Za-z0-9_-]+$/);
    expect(access.token).toMatch(/^ps_/);
    expect(await linkCapabilities(access.url)).toEqual(["manage_endpoints", "view_secrets", "rotate_secrets", "resend", "recover"]);

    const portal = svix(access.token);
    expect((await portal.application.get(mine.uid!)).id).toBe(mine.id);
    expect((await portal.application.get(mine.id)).metadata).toEqual({});
    const other = await apiError(sdk, portal.application.get(theirs.id));
    expect(other.code).toBe(404);
    expect(JSON.stringify(other.body)).not.toContain("Theirs");
    expect((await portal.application.list()).data.map((a) => a.id)).toEqual([mine.id]);
    await expect(portal.eventType.list()).resolves.toMatchObject({ done: true });
    await expect(portal.health.get()).resolves.toBeFalsy();
    const create = await apiError(sdk, portal.application.create({ name: "By portal" }));
    expect(create.code).toBe(403);
    const access2 = await apiError(sdk, portal.authentication.appPortalAccess(mine.id, {}));
    expect(access2.code).toBe(403);
  });

  it("maps Svix capabilities onto ours", async () => {
    const { uid } = await svix().application.create({ name: "Caps", uid: `caps-${tag}` });
    const caps = async (input: object) => linkCapabilities((await svix().authentication.appPortalAccess(uid!, input)).url);
    expect(await caps({ readOnly: true })).toEqual([]);
    expect(await caps({ capabilities: ["ViewBase"] })).toEqual([]);
    expect(await caps({ capabilities: ["ViewBase", "ViewEndpointSecret"] })).toEqual(["view_secrets"]);
    expect(await caps({ capabilities: ["ManageEndpointSecret"] })).toEqual(["view_secrets", "rotate_secrets"]);
    expect(await caps({ capabilities: ["ManageEndpoint", "CreateAttempts"] })).toEqual(["manage_endpoints", "view_secrets", "rotate_secrets", "resend", "recover"]);
    expect(await caps({ capabilities: ["ManageTransformations"] })).toEqual([]);
    const bad = await apiError(sdk, svix().authentication.appPortalAccess(uid!, { expiry: 10 }));
    expect(bad.code).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["body", "expiry"]);
  });

  it("makes the application inline from `application`, and 404s without it", async () => {
    const uid = `inline-${tag}`;
    expect((await apiError(sdk, svix().authentication.appPortalAccess(uid, {}))).code).toBe(404);
    const access = await svix().authentication.appPortalAccess(uid, { application: { name: "Inline" } });
    expect(access.token).toMatch(/^ps_/);
    expect((await svix().application.get(uid)).name).toBe("Inline");
  });

  it("ends a token by logout, and every token of an application by expireAll", async () => {
    const { uid } = await svix().application.create({ name: "Sessions", uid: `sessions-${tag}` });
    const first = await svix().authentication.appPortalAccess(uid!, {});
    await svix(first.token).authentication.logout();
    expect((await apiError(sdk, svix(first.token).application.get(uid!))).code).toBe(401);
    const second = await svix().authentication.appPortalAccess(uid!, {});
    const third = await svix().authentication.appPortalAccess(uid!, {});
    await svix().authentication.expireAll(uid!, {});
    for (const ended of [second, third]) {
      const refused = await apiError(sdk, svix(ended.token).application.get(uid!));
      expect(refused.code).toBe(401);
      expect(refused.body.code).toBe("authentication_failed");
    }
  });

  it("ends with expireAll the tokens and unused links of the sessionIds named, in `expiry` seconds", async () => {
    const { uid } = await svix().application.create({ name: "Expire", uid: `expire-${tag}` });
    const alice = await svix().authentication.appPortalAccess(uid!, { sessionId: "alice" });
    const bob = await svix().authentication.appPortalAccess(uid!, { sessionId: "bob" });
    const aliceLink = await svix().authentication.appPortalAccess(uid!, { sessionId: "alice" });
    await svix().authentication.expireAll(uid!, { sessionIds: ["alice"] });
    expect((await apiError(sdk, svix(alice.token).application.get(uid!))).code).toBe(401);
    expect((await svix(bob.token).application.get(uid!)).uid).toBe(uid);
    // alice's link, never opened, opens nothing now; bob's still does.
    expect((await call("POST", "/api/v1/portal/session", { body: { token: linkToken(aliceLink.url) } })).status).toBe(401);
    expect(await linkCapabilities(bob.url)).toContain("view_secrets");

    // Later: bob's token still works until `expiry` has passed, which ends it as its own expiry would.
    await svix().authentication.expireAll(uid!, { expiry: 3600 });
    expect((await svix(bob.token).application.get(uid!)).uid).toBe(uid);
    const [later] = await getSql()<{ n: number }[]>`
      select count(*)::int as n from portal_sessions s join consumers c on c.id = s.consumer_id
      where c.uid = ${uid!} and s.expires_at > now() + interval '3601 seconds'`;
    expect(later!.n).toBe(0);
    await getSql()`update portal_sessions set expires_at = now() where consumer_id = (select id from consumers where uid = ${uid!}) and expires_at <= now() + interval '3600 seconds'`;
    expect((await apiError(sdk, svix(bob.token).application.get(uid!))).code).toBe(401);
  });

  it("ends the token and its unused link when our API ends the consumer's portal sessions", async () => {
    const api = await apiClient();
    const { uid } = await svix().application.create({ name: "Withdrawn", uid: `withdrawn-${tag}` });
    const access = await svix().authentication.appPortalAccess(uid!, {});
    const ended = await api.del(`/api/v1/consumers/${uid}/portal-sessions`);
    expect(ended.status, ended.text).toBe(204);
    expect((await apiError(sdk, svix(access.token).application.get(uid!))).code).toBe(401);
    expect((await call("POST", "/api/v1/portal/session", { body: { token: linkToken(access.url) } })).status).toBe(401);
  });

  it("opens our portal from its link, a session held to what Svix's capabilities grant", async () => {
    const api = await apiClient();
    const { id: appId, uid } = await svix().application.create({ name: "Link", uid: `link-${tag}` });
    const endpoint = await createEndpoint(api, appId, "http://127.0.0.1:9/link");
    const access = await svix().authentication.appPortalAccess(uid!, { capabilities: ["ViewBase", "ViewEndpointSecret"] } as never);
    const opened = await call("POST", "/api/v1/portal/session", { body: { token: linkToken(access.url) } });
    const session = opened.body.session_token;
    // The portal's screens are told so: its rotate control says why it is off.
    expect(opened.body).toMatchObject({ capabilities: ["view_secrets"], may_rotate_secrets: false });
    const rotating = await call("POST", "/api/v1/portal/session", {
      body: { token: linkToken((await svix().authentication.appPortalAccess(uid!, { capabilities: ["ManageEndpointSecret"] } as never)).url) },
    });
    expect(rotating.body.may_rotate_secrets).toBe(true);
    // The page's session is the portal's: our own routes, as any portal session's.
    expect((await call("GET", `/api/v1/consumers/${uid}`, { key: session })).status).toBe(200);
    expect((await call("GET", `/api/v1/endpoints/${endpoint.id}/secret`, { key: session })).status).toBe(200);
    // ViewEndpointSecret reads the secret and does not rotate it, on either surface.
    const rotate = await call("POST", `/api/v1/endpoints/${endpoint.id}/secret/rotate`, { key: session, body: { grace_seconds: 0 } });
    expect(rotate.status, rotate.text).toBe(403);
    expect((await apiError(sdk, svix(access.token).endpoint.rotateSecret(uid!, endpoint.id, { gracePeriodSeconds: 0 } as never))).code).toBe(403);
    expect((await svix(access.token).endpoint.getSecret(uid!, endpoint.id)).key).toMatch(/^whsec_/);
    // The token is not: our own API refuses it.
    expect((await call("GET", `/api/v1/consumers/${uid}`, { key: access.token })).status).toBe(403);
  });

  it("reads a recovery run as a background task", async () => {
    const api = await apiClient();
    const { id: appId } = await svix().application.create({ name: "Tasks", uid: `tasks-${tag}` });
    const endpoint = await createEndpoint(api, appId, "http://127.0.0.1:9/tasks");
    const recovery = await api.post(`/api/v1/endpoints/${endpoint.id}/recover`, { since: "2020-01-01T00:00:00Z" });
    expect(recovery.status, recovery.text).toBe(202);
    const task = await svix().backgroundTask.get(recovery.body.id);
    expect(task).toMatchObject({ id: recovery.body.id, task: "endpoint.recover", data: { messagesSent: 0 } });
    expect(["running", "finished"]).toContain(task.status);
    expect((await apiError(sdk, svix().backgroundTask.get("rec_00000000000000000000000000"))).code).toBe(404);
    const listed = await svix().backgroundTask.list({ task: "endpoint.recover" as never, limit: 250 });
    expect(listed.data.map((t) => t.id)).toContain(recovery.body.id);
    expect((await svix().backgroundTask.list({ task: "endpoint.replay" as never, limit: 250 })).data.map((t) => t.id)).not.toContain(recovery.body.id);
    expect((await svix().backgroundTask.list({ status: "failed" as never, limit: 250 })).data.map((t) => t.id)).not.toContain(recovery.body.id);
  });
});

describe("a replay of appPortalAccess", () => {
  it("keeps no live token or link: it answers new ones, and what is kept holds neither", async () => {
    const api = await apiClient();
    await api.post("/api/v1/consumers", { uid: "replayed", name: "Replayed" });
    const headers = { "idempotency-key": "auto_portal-replay" };
    const first = await api.post("/api/v1/auth/app-portal-access/replayed", {}, headers);
    const again = await api.post("/api/v1/auth/app-portal-access/replayed", {}, headers);
    expect(first.status, first.text).toBe(200);
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.token).not.toBe(first.body.token);
    expect(linkToken(again.body.url)).not.toBe(linkToken(first.body.url));
    for (const answer of [first, again]) expect((await call("GET", "/api/v1/app/replayed", { key: answer.body.token })).status).toBe(200);
    const kept = await getSql()<{ body: string | null }[]>`select body from api_idempotency where state = 'done'`;
    for (const { body } of kept) {
      for (const secret of [first.body.token, again.body.token, linkToken(first.body.url), linkToken(again.body.url)]) expect(body ?? "").not.toContain(secret);
    }
  });
});

describe("upgrading (migration 0023)", () => {
  // The migration's data statements, run again over rows as the previous release left them.
  const statements = readFileSync("drizzle/0023_svix_portal_tokens.sql", "utf8").split("--> statement-breakpoint");
  const statement = (opening: string) => statements.find((s) => s.replace(/^\s*(--.*\n)*/g, "").startsWith(opening))!;

  it("holds the tokens appPortalAccess made before it to the Svix routes, and drops the live ones kept in answers", async () => {
    const api = await apiClient();
    await api.post("/api/v1/consumers", { uid: "upgraded", name: "Upgraded" });
    const access = await api.post("/api/v1/auth/app-portal-access/upgraded", {});
    const link = await call("POST", "/api/v1/portal/session", { body: { token: linkToken(access.body.url) } });
    const sql = getSql();
    // As before this release: no session says where it came from, and the answer was kept whole.
    await sql`update portal_sessions set svix = null where consumer_id = ${link.body.consumer_id}`;
    await sql`insert into api_idempotency (key_hash, state, status, body, expires_at) values ('kept-before', 'done', 200, ${JSON.stringify(access.body)}, now() + interval '1 day')`;
    expect((await call("GET", "/api/v1/consumers/upgraded", { key: access.body.token })).status).toBe(200);

    await sql.unsafe(statement(`UPDATE "portal_sessions"`));
    await sql.unsafe(statement(`DELETE FROM "api_idempotency"`));
    expect((await call("GET", "/api/v1/consumers/upgraded", { key: access.body.token })).status).toBe(403);
    expect((await call("GET", "/api/v1/app/upgraded", { key: access.body.token })).status).toBe(200);
    // The session its link opened is the portal's still.
    expect((await call("GET", "/api/v1/consumers/upgraded", { key: link.body.session_token })).status).toBe(200);
    expect(await sql`select 1 from api_idempotency where key_hash = 'kept-before'`).toHaveLength(0);
  });
});

describe("from a browser", () => {
  it("answers the preflight the svix SDK's requests need from a PORTAL_CORS_ORIGINS origin", async () => {
    // The preflight is the browser's, not the SDK's: the one request here written by hand.
    await withEnv({ PORTAL_CORS_ORIGINS: "https://saas.example" }, async () => {
      const res = await call("OPTIONS", "/api/v1/app/x", {
        headers: { origin: "https://saas.example", "access-control-request-method": "PUT", "access-control-request-headers": "authorization,idempotency-key,svix-req-id" },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("https://saas.example");
      expect(res.headers.get("access-control-allow-methods")).toContain("PUT");
      expect(res.headers.get("access-control-allow-headers")).toContain("idempotency-key");
    });
  });
});
