import { beforeAll, describe, expect, it } from "vitest";
import { SVIX_CAPABILITIES, portalCapabilities } from "../../lib/svix/portal-access";
import { apiClient, call, type Api } from "../helpers/api";
import { loggedAttempt } from "../helpers/attempt-row";
import { consumerWithEndpoints, sendMessage } from "../helpers/fixtures";
import { apiRoutes, SVIX_SAAS_ONLY } from "../helpers/routes";

/**
 * The Svix API's app-portal token (appPortalAccess's `token`), table-driven over every route of
 * app/api/v1/routes.ts: on the Svix routes it may do what Svix documents for its capabilities
 * (AppPortalCapability) and nothing more; our own API (/consumers, /endpoints…) refuses it 403.
 * A Svix route with no entry in TABLE fails the first test; a route of ours is walked unlisted.
 */
type SvixCapability = (typeof SVIX_CAPABILITIES)[number];
type Ids = { uid: string; endpoint: string; polling: string; message: string; attempt: string; recovery: string };
type Req = { path: string; body?: unknown };
/** What Svix documents a route to need: "read" is ViewBase (every token), a list is any one of those capabilities, "never" no app-portal token. */
type Need = "read" | "never" | readonly SvixCapability[];

// AppPortalCapability, as Svix's OpenAPI document describes each one.
const SEE_SECRET: readonly SvixCapability[] = ["ViewEndpointSecret", "ManageEndpointSecret", "ManageEndpoint"];
const ROTATE_SECRET: readonly SvixCapability[] = ["ManageEndpointSecret", "ManageEndpoint"];
const MANAGE_ENDPOINT: readonly SvixCapability[] = ["ManageEndpoint"];
const CREATE_ATTEMPTS: readonly SvixCapability[] = ["CreateAttempts"];

const since = "2020-01-01T00:00:00Z";
const ep = (a: Ids) => `/app/${a.uid}/endpoint/${a.endpoint}`;

// In this order: the spare endpoint is deleted last, and logout ends the token.
const TABLE: Record<string, { need: Need; req: (a: Ids) => Req }> = {
  "GET /health": { need: "read", req: () => ({ path: "/health" }) },
  "GET /app": { need: "read", req: () => ({ path: "/app" }) },
  "GET /app/[app_id]": { need: "read", req: (a) => ({ path: `/app/${a.uid}` }) },
  "GET /event-type": { need: "read", req: () => ({ path: "/event-type" }) },
  "GET /event-type/[event_type_name]": { need: "read", req: () => ({ path: "/event-type/invoice.paid" }) },
  "GET /background-task": { need: "read", req: () => ({ path: "/background-task" }) },
  "GET /background-task/[task_id]": { need: "read", req: (a) => ({ path: `/background-task/${a.recovery}` }) },
  "GET /app/[app_id]/endpoint": { need: "read", req: (a) => ({ path: `/app/${a.uid}/endpoint` }) },
  "POST /app/[app_id]/endpoint": { need: MANAGE_ENDPOINT, req: (a) => ({ path: `/app/${a.uid}/endpoint`, body: { url: "http://127.0.0.1:9/spare", uid: "spare" } }) },
  "GET /app/[app_id]/endpoint/[endpoint_id]": { need: "read", req: (a) => ({ path: ep(a) }) },
  "PUT /app/[app_id]/endpoint/[endpoint_id]": { need: MANAGE_ENDPOINT, req: (a) => ({ path: ep(a), body: { url: "http://127.0.0.1:9/hook" } }) },
  "PATCH /app/[app_id]/endpoint/[endpoint_id]": { need: MANAGE_ENDPOINT, req: (a) => ({ path: ep(a), body: { description: "by the portal" } }) },
  "GET /app/[app_id]/endpoint/[endpoint_id]/secret": { need: SEE_SECRET, req: (a) => ({ path: `${ep(a)}/secret` }) },
  "POST /app/[app_id]/endpoint/[endpoint_id]/secret/rotate": { need: ROTATE_SECRET, req: (a) => ({ path: `${ep(a)}/secret/rotate`, body: {} }) },
  "GET /app/[app_id]/endpoint/[endpoint_id]/headers": { need: "read", req: (a) => ({ path: `${ep(a)}/headers` }) },
  "PUT /app/[app_id]/endpoint/[endpoint_id]/headers": { need: MANAGE_ENDPOINT, req: (a) => ({ path: `${ep(a)}/headers`, body: { headers: { "x-team": "a" } } }) },
  "PATCH /app/[app_id]/endpoint/[endpoint_id]/headers": { need: MANAGE_ENDPOINT, req: (a) => ({ path: `${ep(a)}/headers`, body: { headers: { "x-env": "a" } } }) },
  "POST /app/[app_id]/endpoint/[endpoint_id]/recover": { need: CREATE_ATTEMPTS, req: (a) => ({ path: `${ep(a)}/recover`, body: { since } }) },
  "POST /app/[app_id]/endpoint/[endpoint_id]/replay-missing": { need: CREATE_ATTEMPTS, req: (a) => ({ path: `${ep(a)}/replay-missing`, body: { since } }) },
  "POST /app/[app_id]/endpoint/[endpoint_id]/send-example": { need: MANAGE_ENDPOINT, req: (a) => ({ path: `${ep(a)}/send-example`, body: { eventType: "invoice.paid" } }) },
  "GET /app/[app_id]/endpoint/[endpoint_id]/stats": { need: "read", req: (a) => ({ path: `${ep(a)}/stats` }) },
  "GET /app/[app_id]/endpoint/[endpoint_id]/msg": { need: "read", req: (a) => ({ path: `${ep(a)}/msg` }) },
  "GET /app/[app_id]/msg": { need: "read", req: (a) => ({ path: `/app/${a.uid}/msg` }) },
  "GET /app/[app_id]/msg/[msg_id]": { need: "read", req: (a) => ({ path: `/app/${a.uid}/msg/${a.message}` }) },
  "GET /app/[app_id]/msg/[msg_id]/attempt/[attempt_id]": { need: "read", req: (a) => ({ path: `/app/${a.uid}/msg/${a.message}/attempt/${a.attempt}` }) },
  "GET /app/[app_id]/msg/[msg_id]/endpoint": { need: "read", req: (a) => ({ path: `/app/${a.uid}/msg/${a.message}/endpoint` }) },
  "POST /app/[app_id]/msg/[msg_id]/endpoint/[endpoint_id]/resend": { need: CREATE_ATTEMPTS, req: (a) => ({ path: `/app/${a.uid}/msg/${a.message}/endpoint/${a.endpoint}/resend` }) },
  "GET /app/[app_id]/attempt/msg/[msg_id]": { need: "read", req: (a) => ({ path: `/app/${a.uid}/attempt/msg/${a.message}` }) },
  "GET /app/[app_id]/attempt/endpoint/[endpoint_id]": { need: "read", req: (a) => ({ path: `/app/${a.uid}/attempt/endpoint/${a.endpoint}` }) },
  // Reading the application's polling endpoint is reading its messages: every token.
  "GET /app/[app_id]/poller/[sink_id]": { need: "read", req: (a) => ({ path: `/app/${a.uid}/poller/${a.polling}` }) },
  "GET /app/[app_id]/poller/[sink_id]/consumer/[consumer_id]": { need: "read", req: (a) => ({ path: `/app/${a.uid}/poller/${a.polling}/consumer/portal` }) },
  "POST /app/[app_id]/poller/[sink_id]/consumer/[consumer_id]/seek": {
    need: "read",
    req: (a) => ({ path: `/app/${a.uid}/poller/${a.polling}/consumer/portal/seek`, body: { after: new Date(Date.now() - 60_000).toISOString() } }),
  },
  // The SaaS's, never its customer's: sending, the applications themselves, the catalog, tokens.
  ...Object.fromEntries(Object.entries(SVIX_SAAS_ONLY).map(([key, req]) => [key, { need: "never" as const, req }])),
  "DELETE /app/[app_id]/endpoint/[endpoint_id]": { need: MANAGE_ENDPOINT, req: (a) => ({ path: `/app/${a.uid}/endpoint/spare` }) },
  // Last: it ends the token.
  "POST /auth/logout": { need: "read", req: () => ({ path: "/auth/logout" }) },
};

/** What Svix documents: may a token with these capabilities call a route that needs `need`? */
const allows = (need: Need, capabilities: readonly SvixCapability[]) => need === "read" || (need !== "never" && need.some((c) => capabilities.includes(c)));

/** Every subset of Svix's capabilities: 64 combinations. */
const COMBINATIONS: SvixCapability[][] = Array.from({ length: 2 ** SVIX_CAPABILITIES.length }, (_, bits) => SVIX_CAPABILITIES.filter((_, i) => bits & (2 ** i)));

const routes = apiRoutes().flatMap((route) => route.methods.map(({ method, contract }) => ({ key: `${method} ${route.folder}`, contract })));
const svixRoutes = routes.filter(({ contract }) => contract && "surface" in contract && contract.surface === "svix");
const ourRoutes = routes.filter(({ contract }) => contract && !("public" in contract) && !("surface" in contract && contract.surface === "svix"));

let api: Api;
let A: Ids;
let B: Ids;

async function objectsOf(uid: string): Promise<Ids> {
  const { endpoints } = await consumerWithEndpoints(api, [`http://127.0.0.1:9/${uid}`], { consumer: { uid, name: uid } });
  const endpoint = endpoints[0]!.id;
  const polling = await api.post(`/api/v1/consumers/${uid}/endpoints`, { kind: "polling" });
  expect(polling.status, polling.text).toBe(201);
  const message = await sendMessage(api, uid);
  const recovery = await api.post(`/api/v1/endpoints/${endpoint}/recover`, { since });
  expect(recovery.status, recovery.text).toBe(202);
  return { uid, endpoint, polling: polling.body.id, message: message.id, attempt: await loggedAttempt(message.id, endpoint), recovery: recovery.body.id };
}

async function svixToken(uid: string, input: object): Promise<string> {
  const access = await api.post(`/api/v1/auth/app-portal-access/${uid}`, input);
  expect(access.status, access.text).toBe(200);
  return access.body.token;
}

const send = (method: string, req: Req, token: string) => call(method, `/api/v1${req.path}`, { body: req.body, key: token });

beforeAll(async () => {
  api = await apiClient();
  await api.post("/api/v1/event-types", { name: "invoice.paid" });
  A = await objectsOf("token-alpha");
  B = await objectsOf("token-bravo");
});

describe("a Svix app-portal token", () => {
  it("has an entry for every Svix route and method, and none for our own routes", () => {
    expect(svixRoutes.length).toBeGreaterThan(40);
    expect(svixRoutes.map(({ key }) => key).filter((key) => !(key in TABLE))).toEqual([]);
    expect(Object.keys(TABLE).filter((key) => !svixRoutes.some((r) => r.key === key))).toEqual([]);
    expect(ourRoutes.length).toBeGreaterThan(40);
  });

  it("is held, for every combination of capabilities, to what Svix documents on every Svix route", () => {
    for (const capabilities of COMBINATIONS) {
      const granted = portalCapabilities({ capabilities });
      for (const { key, contract } of svixRoutes) {
        if (!contract || "public" in contract) continue;
        const enforced = contract.portal !== false && (contract.portal === "scoped" || granted.includes(contract.portal));
        expect(enforced, `${key} with [${capabilities.join(", ")}]`).toBe(allows(TABLE[key]!.need, capabilities));
      }
    }
    // No capabilities given is every one (Svix's default); `readOnly` (deprecated) is reading only.
    expect(portalCapabilities({})).toEqual(portalCapabilities({ capabilities: [...SVIX_CAPABILITIES] }));
    expect(portalCapabilities({ readOnly: true })).toEqual(portalCapabilities({ capabilities: ["ViewBase"] }));
  });

  const TOKENS: [string, object, readonly SvixCapability[]][] = [
    ...SVIX_CAPABILITIES.map((c): [string, object, readonly SvixCapability[]] => [c, { capabilities: [c] }, [c]]),
    ["no capabilities given (every one)", {}, SVIX_CAPABILITIES],
    ["readOnly", { readOnly: true }, ["ViewBase"]],
  ];

  it.each(TOKENS)("with %s does on its application's Svix routes what Svix documents, and no more", async (_, input, capabilities) => {
    const token = await svixToken(A.uid, input);
    for (const [key, { need, req }] of Object.entries(TABLE)) {
      const [method] = key.split(" ");
      const res = await send(method!, req(A), token);
      if (allows(need, capabilities)) {
        expect([401, 403], `${key}: ${res.text}`).not.toContain(res.status);
        expect(res.status, `${key}: ${res.text}`).toBeLessThan(500);
      } else {
        expect(res.status, `${key}: ${res.text}`).toBe(403);
      }
    }
  });

  it("finds nothing of another application's", async () => {
    const token = await svixToken(A.uid, {});
    for (const req of [
      { path: `/app/${B.uid}` },
      { path: `/app/${B.uid}/endpoint` },
      { path: `/app/${B.uid}/endpoint/${B.endpoint}/secret` },
      { path: `/app/${A.uid}/endpoint/${B.endpoint}/secret` },
      { path: `/app/${B.uid}/msg/${B.message}` },
      { path: `/background-task/${B.recovery}` },
    ]) {
      const res = await send("GET", req, token);
      expect(res.status, `${req.path}: ${res.text}`).toBe(404);
    }
    const rotate = await send("POST", { path: `/app/${B.uid}/endpoint/${B.endpoint}/secret/rotate`, body: { gracePeriodSeconds: 0 } }, token);
    expect(rotate.status, rotate.text).toBe(404);
  });

  it("is refused 403 on every route of our own API, even those a portal session may use", async () => {
    const token = await svixToken(A.uid, {});
    const ids: Record<string, string> = { consumer: A.uid, id: A.endpoint, path: "x" };
    for (const { key } of ourRoutes) {
      const [method, folder] = key.split(" ") as [string, string];
      const path = folder.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_, name: string) => ids[name] ?? "x");
      const res = await send(method, { path, body: method === "GET" || method === "DELETE" ? undefined : {} }, token);
      expect(res.status, `${key}: ${res.text}`).toBe(403);
      expect(res.body.code, key).toBe("forbidden");
    }
  });
});
