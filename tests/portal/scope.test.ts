import { beforeAll, describe, expect, it } from "vitest";
import { PORTAL_CAPABILITIES, type PortalCapability, type PortalPermission } from "../../lib/portal/capabilities";
import { apiClient, call, type Api } from "../helpers/api";
import { loggedAttempt } from "../helpers/attempt-row";
import { consumerWithEndpoints, sendMessage } from "../helpers/fixtures";
import { portalSession } from "../helpers/portal";
import { apiRoutes, routeKeys, SVIX_SAAS_ONLY } from "../helpers/routes";

/**
 * Table-driven over every route of app/api/v1/routes.ts and every method it exports, with a portal
 * session of consumer A and objects of consumer B: A's own objects work, B's are 404 naming nothing
 * of B's, routes a customer never uses are 403, and each capability's routes are 403 to a session
 * minted without it. A route or method with no entry in TABLE fails the first test, and so does an
 * entry whose rule is not what the route declares (its `portal` access).
 */
const CAPABILITIES: readonly PortalCapability[] = PORTAL_CAPABILITIES;

type Ids = { consumer: string; uid: string; endpoint: string; spare: string; polling: string; pollTokenId: string; message: string; recovery: string; attempt: string };
type Req = { path: string; body?: unknown };
type Entry =
  | { rule: "forbidden"; req: (a: Ids) => Req }
  | { rule: "public" }
  | { rule: "scoped" | PortalPermission; own: (a: Ids) => Req; foreign?: (b: Ids, a: Ids) => Req };

/** Our own links' `view_secrets` reads and rotates (lib/portal/capabilities.ts): a link without it can do neither. */
const needs = (rule: Entry["rule"], capability: PortalCapability) => rule === capability || (capability === "view_secrets" && rule === "rotate_secrets");

const since = "2020-01-01T00:00:00Z";
let others: { channel: string; apiKey: string; operator: string };

// Run in this order: state moves (disable before enable, pause before resume) and deletes come last.
const TABLE: Record<string, Entry> = {
  "GET /consumers/[consumer]": { rule: "scoped", own: (a) => ({ path: `/consumers/${a.consumer}` }), foreign: (b) => ({ path: `/consumers/${b.uid}` }) },
  "PATCH /consumers/[consumer]": {
    rule: "manage_endpoints",
    own: (a) => ({ path: `/consumers/${a.uid}`, body: { alert_emails: ["ops@alpha.example"] } }),
    foreign: (b) => ({ path: `/consumers/${b.consumer}`, body: { alert_emails: ["ops@alpha.example"] } }),
  },
  "GET /consumers/[consumer]/endpoints": { rule: "scoped", own: (a) => ({ path: `/consumers/${a.uid}/endpoints` }), foreign: (b) => ({ path: `/consumers/${b.uid}/endpoints` }) },
  "POST /consumers/[consumer]/endpoints": {
    rule: "manage_endpoints",
    own: (a) => ({ path: `/consumers/${a.uid}/endpoints`, body: { url: "http://127.0.0.1:9/alpha-new" } }),
    foreign: (b) => ({ path: `/consumers/${b.consumer}/endpoints`, body: { url: "http://127.0.0.1:9/alpha-new" } }),
  },
  "POST /consumers/[consumer]/recover": {
    rule: "recover",
    own: (a) => ({ path: `/consumers/${a.uid}/recover`, body: { since, dry_run: true } }),
    foreign: (b) => ({ path: `/consumers/${b.uid}/recover`, body: { since, dry_run: true } }),
  },
  "GET /endpoints": { rule: "scoped", own: () => ({ path: "/endpoints?q=alpha" }), foreign: (b) => ({ path: `/endpoints?consumer=${b.uid}` }) },
  "GET /endpoints/[id]": { rule: "scoped", own: (a) => ({ path: `/endpoints/${a.endpoint}` }), foreign: (b) => ({ path: `/endpoints/${b.endpoint}` }) },
  "PATCH /endpoints/[id]": {
    rule: "manage_endpoints",
    own: (a) => ({ path: `/endpoints/${a.endpoint}`, body: { description: "alpha's" } }),
    foreign: (b) => ({ path: `/endpoints/${b.endpoint}`, body: { description: "alpha's" } }),
  },
  "POST /endpoints/[id]/disable": { rule: "manage_endpoints", own: (a) => ({ path: `/endpoints/${a.endpoint}/disable` }), foreign: (b) => ({ path: `/endpoints/${b.endpoint}/disable` }) },
  "POST /endpoints/[id]/enable": { rule: "manage_endpoints", own: (a) => ({ path: `/endpoints/${a.endpoint}/enable` }), foreign: (b) => ({ path: `/endpoints/${b.endpoint}/enable` }) },
  "POST /endpoints/[id]/filter/test": {
    rule: "scoped",
    own: (a) => ({ path: `/endpoints/${a.endpoint}/filter/test`, body: { filter: null } }),
    foreign: (b) => ({ path: `/endpoints/${b.endpoint}/filter/test`, body: { filter: null } }),
  },
  "GET /endpoints/[id]/lines": { rule: "scoped", own: (a) => ({ path: `/endpoints/${a.endpoint}/lines` }), foreign: (b) => ({ path: `/endpoints/${b.endpoint}/lines` }) },
  // A poll token outlives the session: making one is managing the endpoint. The poll itself takes the token, not a session.
  "POST /endpoints/[id]/poll-tokens": { rule: "manage_endpoints", own: (a) => ({ path: `/endpoints/${a.polling}/poll-tokens` }), foreign: (b) => ({ path: `/endpoints/${b.polling}/poll-tokens` }) },
  "GET /endpoints/[id]/poll-status": { rule: "scoped", own: (a) => ({ path: `/endpoints/${a.polling}/poll-status` }), foreign: (b) => ({ path: `/endpoints/${b.polling}/poll-status` }) },
  "GET /endpoints/[id]/poll": { rule: "public" },
  "POST /endpoints/[id]/test": { rule: "manage_endpoints", own: (a) => ({ path: `/endpoints/${a.endpoint}/test`, body: {} }), foreign: (b) => ({ path: `/endpoints/${b.endpoint}/test`, body: {} }) },
  "GET /endpoints/[id]/secret": { rule: "view_secrets", own: (a) => ({ path: `/endpoints/${a.endpoint}/secret` }), foreign: (b) => ({ path: `/endpoints/${b.endpoint}/secret` }) },
  "POST /endpoints/[id]/secret/rotate": {
    rule: "rotate_secrets",
    own: (a) => ({ path: `/endpoints/${a.endpoint}/secret/rotate`, body: {} }),
    foreign: (b) => ({ path: `/endpoints/${b.endpoint}/secret/rotate`, body: {} }),
  },
  "GET /endpoints/[id]/stats": { rule: "scoped", own: (a) => ({ path: `/endpoints/${a.endpoint}/stats` }), foreign: (b) => ({ path: `/endpoints/${b.endpoint}/stats` }) },
  "POST /endpoints/[id]/recover": {
    rule: "recover",
    own: (a) => ({ path: `/endpoints/${a.endpoint}/recover`, body: { since, dry_run: true } }),
    foreign: (b) => ({ path: `/endpoints/${b.endpoint}/recover`, body: { since, dry_run: true } }),
  },
  "GET /event-types": { rule: "scoped", own: () => ({ path: "/event-types" }) },
  // The catalogue, its schema versions and their TypeScript: read by the portal; changed only by the SaaS.
  "GET /event-types/[name]": { rule: "scoped", own: () => ({ path: "/event-types/invoice.paid" }) },
  "GET /event-types/[name]/schemas": { rule: "scoped", own: () => ({ path: "/event-types/invoice.paid/schemas" }) },
  "GET /event-types/[name]/schemas/[version]": { rule: "scoped", own: () => ({ path: "/event-types/invoice.paid/schemas/1" }) },
  "GET /event-types/[name]/schemas/[version]/typescript": { rule: "scoped", own: () => ({ path: "/event-types/invoice.paid/schemas/1/typescript" }) },
  "GET /messages": { rule: "scoped", own: () => ({ path: "/messages" }), foreign: (b) => ({ path: `/messages?consumer=${b.uid}` }) },
  "GET /messages/[id]": { rule: "scoped", own: (a) => ({ path: `/messages/${a.message}` }), foreign: (b) => ({ path: `/messages/${b.message}` }) },
  "GET /messages/[id]/attempts": { rule: "scoped", own: (a) => ({ path: `/messages/${a.message}/attempts` }), foreign: (b) => ({ path: `/messages/${b.message}/attempts` }) },
  "POST /messages/[id]/resend": {
    rule: "resend",
    own: (a) => ({ path: `/messages/${a.message}/resend`, body: { endpoint_id: a.endpoint } }),
    // B's endpoint under A's own message: the endpoint is B's, so it is not found either.
    foreign: (b, a) => ({ path: `/messages/${a.message}/resend`, body: { endpoint_id: b.endpoint } }),
  },
  "GET /consumers": { rule: "scoped", own: () => ({ path: "/consumers" }) },
  "GET /attempts": { rule: "scoped", own: () => ({ path: "/attempts" }), foreign: (b) => ({ path: `/attempts?consumer=${b.uid}` }) },
  "GET /stats": { rule: "scoped", own: () => ({ path: "/stats" }) },
  "GET /recoveries": { rule: "scoped", own: () => ({ path: "/recoveries" }), foreign: (b) => ({ path: `/recoveries?consumer=${b.consumer}` }) },
  "GET /recoveries/[id]": { rule: "scoped", own: (a) => ({ path: `/recoveries/${a.recovery}` }), foreign: (b) => ({ path: `/recoveries/${b.recovery}` }) },
  "GET /recoveries/[id]/items": { rule: "scoped", own: (a) => ({ path: `/recoveries/${a.recovery}/items` }), foreign: (b) => ({ path: `/recoveries/${b.recovery}/items` }) },
  "POST /recoveries/[id]/pause": { rule: "recover", own: (a) => ({ path: `/recoveries/${a.recovery}/pause` }), foreign: (b) => ({ path: `/recoveries/${b.recovery}/pause` }) },
  "POST /recoveries/[id]/resume": { rule: "recover", own: (a) => ({ path: `/recoveries/${a.recovery}/resume` }), foreign: (b) => ({ path: `/recoveries/${b.recovery}/resume` }) },
  "POST /recoveries/[id]/cancel": { rule: "recover", own: (a) => ({ path: `/recoveries/${a.recovery}/cancel` }), foreign: (b) => ({ path: `/recoveries/${b.recovery}/cancel` }) },
  "POST /recoveries/[id]/retry-failed": {
    rule: "recover",
    own: (a) => ({ path: `/recoveries/${a.recovery}/retry-failed`, body: {} }),
    foreign: (b) => ({ path: `/recoveries/${b.recovery}/retry-failed`, body: {} }),
  },
  "DELETE /endpoints/[id]": { rule: "manage_endpoints", own: (a) => ({ path: `/endpoints/${a.spare}` }), foreign: (b) => ({ path: `/endpoints/${b.endpoint}` }) },
  "DELETE /endpoints/[id]/poll-tokens/[token_id]": {
    rule: "manage_endpoints",
    own: (a) => ({ path: `/endpoints/${a.polling}/poll-tokens/${a.pollTokenId}` }),
    foreign: (b) => ({ path: `/endpoints/${b.polling}/poll-tokens/${b.pollTokenId}` }),
  },

  "POST /consumers": { rule: "forbidden", req: () => ({ path: "/consumers", body: { uid: "made-by-portal", name: "P" } }) },
  "DELETE /consumers/[consumer]": { rule: "forbidden", req: (a) => ({ path: `/consumers/${a.consumer}` }) },
  "POST /consumers/[consumer]/portal-links": { rule: "forbidden", req: (a) => ({ path: `/consumers/${a.consumer}/portal-links`, body: {} }) },
  "DELETE /consumers/[consumer]/portal-sessions": { rule: "forbidden", req: (a) => ({ path: `/consumers/${a.consumer}/portal-sessions` }) },
  "POST /event-types": { rule: "forbidden", req: () => ({ path: "/event-types", body: { name: "portal.made" } }) },
  "PATCH /event-types/[name]": { rule: "forbidden", req: () => ({ path: "/event-types/invoice.paid", body: { enforcement: "off" } }) },
  "POST /messages": { rule: "forbidden", req: (a) => ({ path: "/messages", body: { consumer: a.uid, event_type: "invoice.paid", payload: {} } }) },
  "POST /messages/batch": {
    rule: "forbidden",
    req: (a) => ({ path: "/messages/batch", body: { messages: [{ consumer: a.uid, event_type: "invoice.paid", payload: {} }] } }),
  },
  "GET /api-keys": { rule: "forbidden", req: () => ({ path: "/api-keys" }) },
  "POST /api-keys": { rule: "forbidden", req: () => ({ path: "/api-keys", body: { name: "portal" } }) },
  "DELETE /api-keys/[id]": { rule: "forbidden", req: () => ({ path: `/api-keys/${others.apiKey}` }) },
  "GET /operators": { rule: "forbidden", req: () => ({ path: "/operators" }) },
  "POST /operators": { rule: "forbidden", req: () => ({ path: "/operators", body: { email: "portal@example.com", password: "long enough pw" } }) },
  "DELETE /operators/[id]": { rule: "forbidden", req: () => ({ path: `/operators/${others.operator}` }) },
  "GET /operators/[id]/sessions": { rule: "forbidden", req: () => ({ path: `/operators/${others.operator}/sessions` }) },
  "DELETE /operators/[id]/sessions": { rule: "forbidden", req: () => ({ path: `/operators/${others.operator}/sessions` }) },
  "DELETE /operators/[id]/two-factor": { rule: "forbidden", req: () => ({ path: `/operators/${others.operator}/two-factor` }) },
  "GET /sessions": { rule: "forbidden", req: () => ({ path: "/sessions" }) },
  "DELETE /sessions/[id]": { rule: "forbidden", req: () => ({ path: "/sessions/ses_unknown" }) },
  "POST /sessions/end-others": { rule: "forbidden", req: () => ({ path: "/sessions/end-others" }) },
  "GET /two-factor": { rule: "forbidden", req: () => ({ path: "/two-factor" }) },
  "POST /two-factor/enrollment": { rule: "forbidden", req: () => ({ path: "/two-factor/enrollment" }) },
  "POST /two-factor/enrollment/confirm": { rule: "forbidden", req: () => ({ path: "/two-factor/enrollment/confirm", body: { code: "123456" } }) },
  "GET /two-factor/policy": { rule: "forbidden", req: () => ({ path: "/two-factor/policy" }) },
  "PUT /two-factor/policy": { rule: "forbidden", req: () => ({ path: "/two-factor/policy", body: { required: true } }) },
  "GET /alert-channels": { rule: "forbidden", req: () => ({ path: "/alert-channels" }) },
  "POST /alert-channels": { rule: "forbidden", req: () => ({ path: "/alert-channels", body: { kind: "email", name: "p", config: { to: ["p@example.com"] } } }) },
  "GET /alert-channels/[id]": { rule: "forbidden", req: () => ({ path: `/alert-channels/${others.channel}` }) },
  "PATCH /alert-channels/[id]": { rule: "forbidden", req: () => ({ path: `/alert-channels/${others.channel}`, body: { name: "p" } }) },
  "DELETE /alert-channels/[id]": { rule: "forbidden", req: () => ({ path: `/alert-channels/${others.channel}` }) },
  "POST /alert-channels/[id]/test": { rule: "forbidden", req: () => ({ path: `/alert-channels/${others.channel}/test` }) },
  "GET /alerts": { rule: "forbidden", req: () => ({ path: "/alerts" }) },
  "GET /audit-events": { rule: "forbidden", req: () => ({ path: "/audit-events" }) },
  "DELETE /messages/[id]/payload": { rule: "forbidden", req: (a) => ({ path: `/messages/${a.message}/payload` }) },
  "GET /erasures/[id]": { rule: "forbidden", req: () => ({ path: "/erasures/era_unknown" }) },
  "GET /data-lifecycle": { rule: "forbidden", req: () => ({ path: "/data-lifecycle" }) },
  // An unknown path is refused to a portal session before it is found unknown (the catch-all declares portal: false).
  ...Object.fromEntries(["GET", "POST", "PUT", "PATCH", "DELETE"].map((m) => [`${m} /[...path]`, { rule: "forbidden", req: () => ({ path: "/no-such-route" }) }])),

  // The Svix-compatible surface (tests/svix/): a portal token is the app-scoped token of appPortalAccess.
  "GET /health": { rule: "scoped", own: () => ({ path: "/health" }) },
  "GET /app": { rule: "scoped", own: () => ({ path: "/app" }) },
  "GET /app/[app_id]": { rule: "scoped", own: (a) => ({ path: `/app/${a.uid}` }), foreign: (b) => ({ path: `/app/${b.uid}` }) },
  "GET /event-type": { rule: "scoped", own: () => ({ path: "/event-type" }) },
  "GET /event-type/[event_type_name]": { rule: "scoped", own: () => ({ path: "/event-type/invoice.paid" }) },
  "GET /background-task/[task_id]": { rule: "scoped", own: (a) => ({ path: `/background-task/${a.recovery}` }), foreign: (b) => ({ path: `/background-task/${b.recovery}` }) },
  "GET /app/[app_id]/endpoint": { rule: "scoped", own: (a) => ({ path: `/app/${a.uid}/endpoint` }), foreign: (b) => ({ path: `/app/${b.uid}/endpoint` }) },
  "POST /app/[app_id]/endpoint": {
    rule: "manage_endpoints",
    own: (a) => ({ path: `/app/${a.uid}/endpoint`, body: { url: "http://127.0.0.1:9/alpha-svix", uid: "alpha-svix" } }),
    foreign: (b) => ({ path: `/app/${b.uid}/endpoint`, body: { url: "http://127.0.0.1:9/alpha-svix" } }),
  },
  "GET /app/[app_id]/endpoint/[endpoint_id]": { rule: "scoped", own: (a) => ({ path: `/app/${a.uid}/endpoint/${a.endpoint}` }), foreign: (b) => ({ path: `/app/${b.uid}/endpoint/${b.endpoint}` }) },
  "PUT /app/[app_id]/endpoint/[endpoint_id]": {
    rule: "manage_endpoints",
    own: (a) => ({ path: `/app/${a.uid}/endpoint/${a.endpoint}`, body: { url: "http://127.0.0.1:9/alpha-hook" } }),
    foreign: (b, a) => ({ path: `/app/${a.uid}/endpoint/${b.endpoint}`, body: { url: "http://127.0.0.1:9/alpha-hook" } }),
  },
  "PATCH /app/[app_id]/endpoint/[endpoint_id]": {
    rule: "manage_endpoints",
    own: (a) => ({ path: `/app/${a.uid}/endpoint/${a.endpoint}`, body: { description: "alpha's" } }),
    foreign: (b) => ({ path: `/app/${b.uid}/endpoint/${b.endpoint}`, body: { description: "alpha's" } }),
  },
  "GET /app/[app_id]/endpoint/[endpoint_id]/secret": { rule: "view_secrets", own: (a) => ({ path: `/app/${a.uid}/endpoint/${a.endpoint}/secret` }), foreign: (b) => ({ path: `/app/${b.uid}/endpoint/${b.endpoint}/secret` }) },
  "POST /app/[app_id]/endpoint/[endpoint_id]/secret/rotate": {
    rule: "rotate_secrets",
    own: (a) => ({ path: `/app/${a.uid}/endpoint/${a.endpoint}/secret/rotate`, body: {} }),
    foreign: (b) => ({ path: `/app/${b.uid}/endpoint/${b.endpoint}/secret/rotate`, body: {} }),
  },
  "GET /app/[app_id]/endpoint/[endpoint_id]/headers": { rule: "scoped", own: (a) => ({ path: `/app/${a.uid}/endpoint/${a.endpoint}/headers` }), foreign: (b) => ({ path: `/app/${b.uid}/endpoint/${b.endpoint}/headers` }) },
  "PUT /app/[app_id]/endpoint/[endpoint_id]/headers": {
    rule: "manage_endpoints",
    own: (a) => ({ path: `/app/${a.uid}/endpoint/${a.endpoint}/headers`, body: { headers: { "x-team": "alpha" } } }),
    foreign: (b) => ({ path: `/app/${b.uid}/endpoint/${b.endpoint}/headers`, body: { headers: { "x-team": "alpha" } } }),
  },
  "PATCH /app/[app_id]/endpoint/[endpoint_id]/headers": {
    rule: "manage_endpoints",
    own: (a) => ({ path: `/app/${a.uid}/endpoint/${a.endpoint}/headers`, body: { headers: { "x-env": "alpha" } } }),
    foreign: (b) => ({ path: `/app/${b.uid}/endpoint/${b.endpoint}/headers`, body: { headers: { "x-env": "alpha" } } }),
  },
  "POST /app/[app_id]/endpoint/[endpoint_id]/recover": {
    rule: "recover",
    own: (a) => ({ path: `/app/${a.uid}/endpoint/${a.endpoint}/recover`, body: { since } }),
    foreign: (b) => ({ path: `/app/${b.uid}/endpoint/${b.endpoint}/recover`, body: { since } }),
  },
  "POST /app/[app_id]/endpoint/[endpoint_id]/replay-missing": {
    rule: "recover",
    own: (a) => ({ path: `/app/${a.uid}/endpoint/${a.endpoint}/replay-missing`, body: { since } }),
    foreign: (b) => ({ path: `/app/${b.uid}/endpoint/${b.endpoint}/replay-missing`, body: { since } }),
  },
  "GET /app/[app_id]/endpoint/[endpoint_id]/stats": { rule: "scoped", own: (a) => ({ path: `/app/${a.uid}/endpoint/${a.endpoint}/stats` }), foreign: (b) => ({ path: `/app/${b.uid}/endpoint/${b.endpoint}/stats` }) },
  "GET /app/[app_id]/endpoint/[endpoint_id]/msg": { rule: "scoped", own: (a) => ({ path: `/app/${a.uid}/endpoint/${a.endpoint}/msg` }), foreign: (b) => ({ path: `/app/${b.uid}/endpoint/${b.endpoint}/msg` }) },
  "DELETE /app/[app_id]/endpoint/[endpoint_id]": { rule: "manage_endpoints", own: (a) => ({ path: `/app/${a.uid}/endpoint/alpha-svix` }), foreign: (b) => ({ path: `/app/${b.uid}/endpoint/${b.endpoint}` }) },
  "GET /app/[app_id]/msg": { rule: "scoped", own: (a) => ({ path: `/app/${a.uid}/msg` }), foreign: (b) => ({ path: `/app/${b.uid}/msg` }) },
  "GET /app/[app_id]/msg/[msg_id]": { rule: "scoped", own: (a) => ({ path: `/app/${a.uid}/msg/${a.message}` }), foreign: (b) => ({ path: `/app/${b.uid}/msg/${b.message}` }) },
  "GET /app/[app_id]/msg/[msg_id]/attempt/[attempt_id]": {
    rule: "scoped",
    own: (a) => ({ path: `/app/${a.uid}/msg/${a.message}/attempt/${a.attempt}` }),
    foreign: (b) => ({ path: `/app/${b.uid}/msg/${b.message}/attempt/${b.attempt}` }),
  },
  "GET /app/[app_id]/msg/[msg_id]/endpoint": { rule: "scoped", own: (a) => ({ path: `/app/${a.uid}/msg/${a.message}/endpoint` }), foreign: (b) => ({ path: `/app/${b.uid}/msg/${b.message}/endpoint` }) },
  "POST /app/[app_id]/endpoint/[endpoint_id]/send-example": {
    rule: "manage_endpoints",
    own: (a) => ({ path: `/app/${a.uid}/endpoint/${a.endpoint}/send-example`, body: { eventType: "invoice.paid" } }),
    foreign: (b) => ({ path: `/app/${b.uid}/endpoint/${b.endpoint}/send-example`, body: { eventType: "invoice.paid" } }),
  },
  "POST /app/[app_id]/msg/[msg_id]/endpoint/[endpoint_id]/resend": {
    rule: "resend",
    own: (a) => ({ path: `/app/${a.uid}/msg/${a.message}/endpoint/${a.endpoint}/resend` }),
    foreign: (b) => ({ path: `/app/${b.uid}/msg/${b.message}/endpoint/${b.endpoint}/resend` }),
  },
  "GET /app/[app_id]/attempt/msg/[msg_id]": { rule: "scoped", own: (a) => ({ path: `/app/${a.uid}/attempt/msg/${a.message}` }), foreign: (b) => ({ path: `/app/${b.uid}/attempt/msg/${b.message}` }) },
  "GET /app/[app_id]/attempt/endpoint/[endpoint_id]": { rule: "scoped", own: (a) => ({ path: `/app/${a.uid}/attempt/endpoint/${a.endpoint}` }), foreign: (b) => ({ path: `/app/${b.uid}/attempt/endpoint/${b.endpoint}` }) },
  "GET /background-task": { rule: "scoped", own: () => ({ path: "/background-task" }) },
  "GET /app/[app_id]/poller/[sink_id]": { rule: "scoped", own: (a) => ({ path: `/app/${a.uid}/poller/${a.polling}` }), foreign: (b) => ({ path: `/app/${b.uid}/poller/${b.polling}` }) },
  "GET /app/[app_id]/poller/[sink_id]/consumer/[consumer_id]": {
    rule: "scoped",
    own: (a) => ({ path: `/app/${a.uid}/poller/${a.polling}/consumer/alpha-reader` }),
    foreign: (b, a) => ({ path: `/app/${a.uid}/poller/${b.polling}/consumer/alpha-reader` }),
  },
  "POST /app/[app_id]/poller/[sink_id]/consumer/[consumer_id]/seek": {
    rule: "scoped",
    own: (a) => ({ path: `/app/${a.uid}/poller/${a.polling}/consumer/alpha-reader/seek`, body: { after: new Date(Date.now() - 60_000).toISOString() } }),
    foreign: (b) => ({ path: `/app/${b.uid}/poller/${b.polling}/consumer/alpha-reader/seek`, body: { after: new Date(Date.now() - 60_000).toISOString() } }),
  },
  ...Object.fromEntries(Object.entries(SVIX_SAAS_ONLY).map(([key, req]) => [key, { rule: "forbidden" as const, req }])),

  "GET /openapi.json": { rule: "public" },
  "POST /portal/session": { rule: "public" }, // tests/portal/links.test.ts
  "DELETE /portal/session": { rule: "public" }, // ends the session: tests/portal/links.test.ts
  // Last: it ends the session (tests/svix/portal-access.test.ts).
  "POST /auth/logout": { rule: "scoped", own: () => ({ path: "/auth/logout" }) },
};

let api: Api;
let A: Ids;
let B: Ids;
let bMarkers: string[];
const walked: string[] = [];

async function objectsOf(uid: string, name: string, url: string): Promise<Ids> {
  const { consumerId, endpoints } = await consumerWithEndpoints(api, [url, `${url}-spare`], { consumer: { uid, name } });
  const [endpoint, spare] = endpoints.map((e) => e.id) as [string, string];
  const polling = await api.post(`/api/v1/consumers/${uid}/endpoints`, { kind: "polling" });
  expect(polling.status, polling.text).toBe(201);
  const pollToken = await api.post(`/api/v1/endpoints/${polling.body.id}/poll-tokens`);
  const message = await sendMessage(api, uid, { payload: { owner: name } });
  const recovery = await api.post(`/api/v1/endpoints/${endpoint}/recover`, { since, include_never_attempted: true });
  expect(recovery.status, recovery.text).toBe(202);
  const attempt = await loggedAttempt(message.id, endpoint);
  return { consumer: consumerId, uid, endpoint, spare, polling: polling.body.id, pollTokenId: pollToken.body.id, message: message.id, recovery: recovery.body.id, attempt };
}

beforeAll(async () => {
  api = await apiClient();
  A = await objectsOf("alpha-corp", "Alpha Corp", "http://127.0.0.1:9/alpha-hook");
  B = await objectsOf("bravo-corp", "Bravo Corp", "http://127.0.0.1:9/bravo-hook");
  bMarkers = [B.consumer, B.uid, "Bravo Corp", "bravo-hook", B.endpoint, B.spare, B.polling, B.message, B.recovery];
  await api.post("/api/v1/event-types", { name: "invoice.paid", schema: { type: "object" } });
  const channel = await api.post("/api/v1/alert-channels", { kind: "email", name: "ops", config: { to: ["ops@example.com"] } });
  const key = await api.post("/api/v1/api-keys", { name: "other" });
  const operator = await api.post("/api/v1/operators", { email: "other@example.com", password: "long enough pw", role: "admin" });
  others = { channel: channel.body.id, apiKey: key.body.id, operator: operator.body.id };
  walked.push(...routeKeys());
});

const send = (method: string, req: Req, token: string) => call(method, `/api/v1${req.path}`, { body: req.body, key: token });
const entries = () => Object.entries(TABLE).filter(([key]) => walked.includes(key));

function expectNothingOfB(text: string, label: string) {
  for (const marker of bMarkers) expect(text, `${label} names B's ${marker}`).not.toContain(marker);
}

describe("a portal session over every /api/v1 route", () => {
  it("has an entry for every route and method, with the rule the route declares", () => {
    expect(walked.length).toBeGreaterThan(40);
    expect(walked.filter((key) => !(key in TABLE))).toEqual([]);
    for (const route of apiRoutes()) {
      for (const { method, contract } of route.methods) {
        const key = `${method} ${route.folder}`;
        const entry = TABLE[key];
        if (!entry || !contract) continue;
        const declared = "public" in contract ? "public" : contract.portal === false ? "forbidden" : contract.portal;
        // Ending its own session is the one route whose own test lives elsewhere.
        if (key === "DELETE /portal/session") continue;
        expect(declared, key).toBe(entry.rule);
      }
    }
  });

  it("gets 404 naming nothing of B's for each of B's objects", async () => {
    const { token } = await portalSession(api, A.uid);
    for (const [key, entry] of entries()) {
      if (entry.rule === "forbidden" || entry.rule === "public" || !entry.foreign) continue;
      const [method] = key.split(" ");
      const res = await send(method!, entry.foreign(B, A), token);
      expect(res.status, `${key}: ${res.text}`).toBe(404);
      expect(res.body.code, key).toBe("not_found");
      expectNothingOfB(res.text, key);
    }
  });

  it("works on A's own objects, and what it reads holds nothing of B's", async () => {
    const { token } = await portalSession(api, A.uid);
    for (const [key, entry] of entries()) {
      if (entry.rule === "forbidden" || entry.rule === "public") continue;
      const [method] = key.split(" ");
      const res = await send(method!, entry.own(A), token);
      expect(res.status, `${key}: ${res.text}`).toBeGreaterThanOrEqual(200);
      expect(res.status, `${key}: ${res.text}`).toBeLessThan(300);
      expectNothingOfB(res.text, key);
    }
  });

  it("lists its own consumer alone, whatever it searches for", async () => {
    const { token } = await portalSession(api, A.uid);
    const all = await send("GET", { path: "/consumers" }, token);
    expect(all.body.data.map((c: { id: string }) => c.id)).toEqual([A.consumer]);
    expect(all.body.next_cursor).toBeNull();
    const search = await send("GET", { path: `/consumers?q=${B.uid}` }, token);
    expect(search.status).toBe(200);
    expect(search.body.data).toEqual([]);
  });

  it("is refused 403 forbidden on the routes a customer never uses", async () => {
    const { token } = await portalSession(api, A.uid);
    for (const [key, entry] of entries()) {
      if (entry.rule !== "forbidden") continue;
      const [method] = key.split(" ");
      const res = await send(method!, entry.req(A), token);
      expect(res.status, `${key}: ${res.text}`).toBe(403);
      expect(res.body.code, key).toBe("forbidden");
    }
  });

  it.each(CAPABILITIES)("is refused 403 on every route needing %s by a session minted without it", async (capability) => {
    const { token } = await portalSession(api, A.uid, { capabilities: CAPABILITIES.filter((c) => c !== capability) });
    const needing = entries().filter(([, entry]) => needs(entry.rule, capability));
    expect(needing.length).toBeGreaterThan(0);
    for (const [key, entry] of needing) {
      if (entry.rule === "forbidden" || entry.rule === "public") continue;
      const [method] = key.split(" ");
      const res = await send(method!, entry.own(A), token);
      expect(res.status, `${key}: ${res.text}`).toBe(403);
      expect(res.body.code, key).toBe("forbidden");
    }
  });

  it("may change only alert_emails of its own consumer", async () => {
    const { token } = await portalSession(api, A.uid);
    for (const body of [{ name: "Renamed" }, { metadata: { plan: "free" } }, { name: "Renamed", alert_emails: [] }, { weight: 100 }]) {
      const res = await send("PATCH", { path: `/consumers/${A.uid}`, body }, token);
      expect(res.status, res.text).toBe(403);
    }
    const own = await api.get(`/api/v1/consumers/${A.uid}`);
    expect(own.body).toMatchObject({ name: "Alpha Corp", weight: 1 });
    // Its weight is the SaaS's business, like its metadata: not in the portal's answer.
    const seen = await send("GET", { path: `/consumers/${A.uid}` }, token);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body).not.toHaveProperty("weight");
    expect(seen.body).not.toHaveProperty("metadata");
  });
});
