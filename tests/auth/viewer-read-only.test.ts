import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import { apiClient, call, type Api } from "../helpers/api";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { operatorClient } from "../helpers/session";
import { APP_ORIGIN } from "../helpers/origin";
import { apiRoutes } from "../helpers/routes";
import { loggedAttempt } from "../helpers/attempt-row";

/**
 * Table-driven over every route of app/api/v1/routes.ts: each non-GET method, sent with a viewer's
 * session, is 403 `forbidden` and changes no row anywhere; with an admin's session from a foreign
 * origin it is 403 `origin_mismatch`. A new route that skipped the shared wrapper fails here.
 */
const METHODS = ["POST", "PUT", "PATCH", "DELETE"];
// Routes that take no operator or API-key credential at all: the link's one-time token, a polling endpoint's poll token is the credential.
const UNWRAPPED = new Set(["POST /portal/session", "GET /endpoints/[id]/poll"]);

let ids: Record<string, string>;

/** Real ids, so a route that forgot the check would really write. */
function concretePath(segments: string[]): string {
  return (
    "/api/v1/" +
    segments
      .map((segment, i) => {
        // Two segments, so a catch-all beside a [param] folder (the Svix surface's) is reached.
        if (segment.startsWith("[...")) return "no/such-route";
        if (!segment.startsWith("[")) return segment;
        if (segment === "[consumer]") return ids.consumer;
        // A polling endpoint's routes (…/poll-status, …/poll-tokens) and the Svix poller's sink take a polling endpoint.
        if ((segments[i - 1] === "endpoints" && segments[i + 1]?.startsWith("poll")) || segments[i - 1] === "poller") return ids.polling!;
        // An operational webhook endpoint (Svix's) is an alert channel, not one of our endpoints.
        return ids[segments[0] === "operational-webhook" ? "operational-webhook" : segments[i - 1]!] ?? "unknown-id";
      })
      .join("/")
  );
}

/** Bodies that would succeed for an admin, so "nothing written" means something. */
const BODIES: Record<string, unknown> = {
  "POST /consumers": { uid: "viewer-made", name: "V" },
  "PATCH /consumers/[consumer]": { name: "renamed by viewer" },
  "POST /consumers/[consumer]/endpoints": { url: "http://127.0.0.1:9/viewer" },
  "PATCH /endpoints/[id]": { description: "viewer" },
  "POST /event-types": { name: "viewer.made" },
  "POST /messages": { consumer: "acme", event_type: "invoice.paid", payload: { a: 1 } },
  "POST /messages/batch": { messages: [{ consumer: "acme", event_type: "invoice.paid", payload: { a: 1 }, idempotency_key: "viewer-batch" }] },
  "POST /messages/[id]/resend": {},
  "POST /alert-channels": { kind: "email", name: "v", config: { to: ["v@example.com"] } },
  "PATCH /alert-channels/[id]": { name: "viewer" },
  "POST /api-keys": { name: "viewer" },
  "POST /operators": { email: "made-by-viewer@example.com", password: "long enough pw" },
  "POST /endpoints/[id]/recover": { since: "2020-01-01T00:00:00Z" },
  "POST /consumers/[consumer]/recover": { since: "2020-01-01T00:00:00Z" },
};

/** An erasure to read (GET /erasures/{id}): a consumer of its own, deleted (and erased at once). */
async function erasureId(api: Api, uid: string): Promise<string> {
  const { uid: doomed, id: consumer } = await createConsumer(api, { uid: `${uid}-erased` });
  expect((await api.del(`/api/v1/consumers/${doomed}`)).status).toBe(204);
  return (await getDb().execute<{ id: string }>(sql`select id from erasures where consumer_id = ${consumer}`))[0]!.id;
}

async function everything(): Promise<string> {
  const tables = await getDb().execute<{ schemaname: string; tablename: string }>(
    sql`select schemaname, tablename from pg_tables where schemaname in ('public', 'graphile_worker') order by 1, 2`,
  );
  const parts: string[] = [];
  for (const { schemaname, tablename } of tables) {
    const [row] = await getDb().execute<{ digest: string | null }>(
      sql.raw(`select md5(string_agg(t::text, '|' order by t::text)) as digest from "${schemaname}"."${tablename}" t`),
    );
    parts.push(`${schemaname}.${tablename}:${row?.digest}`);
  }
  return parts.join("\n");
}

type Case = { method: string; route: string; path: string; body: unknown };
const cases: Case[] = [];

/** One of every object a route can name, made by an API key; `uid` names the consumer. */
async function makeObjects(uid: string, headers: Record<string, string> = {}): Promise<Record<string, string>> {
  const api = await apiClient();
  const consumer = await createConsumer(api, { uid });
  const endpoint = await createEndpoint(api, uid, "http://127.0.0.1:9/hook", { headers });
  const polling = await api.post(`/api/v1/consumers/${uid}/endpoints`, { kind: "polling" });
  expect(polling.status, polling.text).toBe(201);
  const message = await sendMessage(api, uid, { payload: { n: 1 } });
  const channel = await api.post("/api/v1/alert-channels", { kind: "email", name: "ops", config: { to: ["ops@example.com"] } });
  const key = await api.post("/api/v1/api-keys", { name: "victim" });
  const other = await api.post("/api/v1/operators", { email: `other-${uid}@example.com`, password: "long enough pw", role: "admin" });
  const recovery = await api.post(`/api/v1/endpoints/${endpoint.id}/recover`, { since: "2020-01-01T00:00:00Z", include_never_attempted: true });
  expect(recovery.status, recovery.text).toBe(202);
  // 409 the second time: there is one. With a schema, so its version 1 and its TypeScript can be read.
  await api.post("/api/v1/event-types", { name: "invoice.paid", schema: { type: "object" } });
  return {
    consumer: consumer.id,
    // The Svix-compatible surface's names for the same objects.
    app: consumer.id,
    "event-type": "invoice.paid",
    "event-types": "invoice.paid",
    schemas: "1",
    "background-task": recovery.body.id,
    endpoint: endpoint.id,
    polling: polling.body.id,
    msg: message.id,
    attempt: await loggedAttempt(message.id, endpoint.id),
    endpoints: endpoint.id,
    messages: message.id,
    "alert-channels": channel.body.id,
    "api-keys": key.body.id,
    operators: other.body.id,
    recoveries: recovery.body.id,
    erasures: await erasureId(api, uid),
    "operational-webhook": (await api.post("/api/v1/alert-channels", { kind: "webhook", name: "ops hook", config: { url: "http://127.0.0.1:9/ops" } })).body.id,
  };
}

beforeAll(async () => {
  ids = await makeObjects("acme");
  BODIES["POST /messages/[id]/resend"] = { endpoint_id: ids.endpoints };
  for (const { folder, methods } of apiRoutes()) {
    const segments = folder.split("/").filter(Boolean);
    for (const { method } of methods.filter((m) => METHODS.includes(m.method) && !UNWRAPPED.has(`${m.method} ${folder}`))) {
      cases.push({ method, route: folder, path: concretePath(segments), body: BODIES[`${method} ${folder}`] ?? {} });
    }
  }
});

describe("a viewer changes nothing", () => {
  it("walks every non-GET route", () => {
    expect(cases.length).toBeGreaterThan(15);
    expect(cases.map((c) => `${c.method} ${c.route}`)).toEqual(expect.arrayContaining(["POST /api-keys", "DELETE /operators/[id]", "POST /messages"]));
  });

  it("is refused 403 forbidden on each but their own account's, and no row anywhere changes", async () => {
    // Their own sessions and second factor are any operator's to manage (role "own"; tests/auth/sessions.test.ts, two-factor.test.ts).
    const own = new Set(apiRoutes().flatMap((r) => r.methods.filter((m) => m.contract && "role" in m.contract && m.contract.role === "own").map((m) => `${m.method} ${r.folder}`)));
    expect([...own].filter((key) => !key.startsWith("GET ")).sort()).toEqual(["DELETE /sessions/[id]", "POST /sessions/end-others", "POST /two-factor/enrollment", "POST /two-factor/enrollment/confirm"]);
    const viewer = await operatorClient("viewer");
    const before = await everything();
    for (const c of cases.filter((c) => !own.has(`${c.method} ${c.route}`))) {
      const res = await call(c.method, c.path, { body: c.body, headers: { cookie: viewer.cookie, origin: APP_ORIGIN } });
      expect(res.status, `${c.method} ${c.route}`).toBe(403);
      expect(res.body.code, `${c.method} ${c.route}`).toBe("forbidden");
      // problem+json; on the Svix-compatible surface, Svix's `{code, detail}` as JSON.
      expect(res.headers.get("content-type")).toMatch(c.route.startsWith("/app") || /^\/(event-type|auth|background-task|health|operational-webhook|environment|stats\/usage)\b/.test(c.route) ? /^application\/json$/ : /^application\/problem\+json$/);
    }
    expect(await everything()).toBe(before);
  });

  it("refuses an admin's session from a foreign origin on each, writing nothing", async () => {
    const admin = await operatorClient("admin", { origin: "https://attacker.example" });
    const before = await everything();
    for (const c of cases) {
      const res = await call(c.method, c.path, { body: c.body, headers: { cookie: admin.cookie, origin: "https://attacker.example" } });
      expect(res.status, `${c.method} ${c.route}`).toBe(403);
      expect(res.body.code, `${c.method} ${c.route}`).toBe("origin_mismatch");
    }
    expect(await everything()).toBe(before);
  });

  it("lets an admin's same-origin session through to each handler (the refusals above were the role's)", async () => {
    const admin = await operatorClient("admin");
    for (const c of cases) {
      const res = await call(c.method, c.path, { body: c.body, headers: { cookie: admin.cookie, origin: APP_ORIGIN } });
      expect(res.status, `${c.method} ${c.route}: ${res.text}`).not.toBe(403);
      expect(res.status, `${c.method} ${c.route}: ${res.text}`).toBeLessThan(500);
    }
  });
});

// What a viewer may not even read: signing secrets (anyone holding one can forge webhooks to that
// customer), the people who run the product, and the database's sizes and retention (Data & retention). (API keys are listed by name and prefix only.)
const ADMIN_ONLY_READS = new Set([
  "GET /endpoints/[id]/secret",
  "GET /app/[app_id]/endpoint/[endpoint_id]/secret",
  "GET /operational-webhook/endpoint/[endpoint_id]/secret",
  "GET /operators",
  "GET /operators/[id]/sessions",
  "GET /data-lifecycle",
]);

describe("what a viewer reads", () => {
  it("walks every GET route: refused exactly the admin-only reads, with no secret in any answer", async () => {
    // The writes above deleted some of the objects: a fresh set, whose endpoint sends a credential.
    ids = await makeObjects("reads", { authorization: "Bearer receiver-token-123" });
    const viewer = await operatorClient("viewer");
    const admin = await operatorClient("admin");
    const reads: string[] = [];
    for (const { folder, methods } of apiRoutes()) {
      const segments = folder.split("/").filter(Boolean);
      if (!methods.some((m) => m.method === "GET") || folder.includes("[...") || UNWRAPPED.has(`GET ${folder}`)) continue;
      const route = `GET ${folder}`;
      reads.push(route);
      const asViewer = await viewer.get(concretePath(segments));
      const asAdmin = await admin.get(concretePath(segments));
      const ok = route === "GET /health" ? 204 : 200; // the Svix surface's health answers no body
      expect(asAdmin.status, `${route} as admin: ${asAdmin.text}`).toBe(ok);
      if (ADMIN_ONLY_READS.has(route)) {
        expect(asViewer.status, route).toBe(403);
        expect(asViewer.body.code, route).toBe("forbidden");
      } else {
        expect(asViewer.status, `${route}: ${asViewer.text}`).toBe(ok);
      }
      expect(asViewer.text.includes("receiver-token-123"), `${route} shows a header value`).toBe(false);
      expect(/whsec_[A-Za-z0-9+/=]{16,}/.test(asViewer.text), `${route} shows a signing secret`).toBe(false);
    }
    expect(reads).toEqual(expect.arrayContaining([...ADMIN_ONLY_READS, "GET /endpoints/[id]"]));
    // What the routes declare agrees: the admin-only reads, and no other.
    const declared = apiRoutes().flatMap((r) => r.methods.filter((m) => m.method === "GET" && m.contract && "role" in m.contract && m.contract.role === "admin").map(() => `GET ${r.folder}`));
    expect(declared.sort()).toEqual([...ADMIN_ONLY_READS].sort());
  });

  it("sees an endpoint's custom header names with their values masked; an admin sees the values", async () => {
    const viewer = await operatorClient("viewer");
    const admin = await operatorClient("admin");
    expect((await viewer.get(`/api/v1/endpoints/${ids.endpoints}`)).body.headers).toEqual({ authorization: "[redacted]" });
    const listed = (await viewer.get(`/api/v1/consumers/reads/endpoints`)).body.data as { id: string; headers: Record<string, string> }[];
    expect(listed.find((e) => e.id === ids.endpoints)!.headers).toEqual({ authorization: "[redacted]" });
    expect((await admin.get(`/api/v1/endpoints/${ids.endpoints}`)).body.headers).toEqual({ authorization: "Bearer receiver-token-123" });
  });
});
