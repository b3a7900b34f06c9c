import { beforeAll, describe, expect, it } from "vitest";
import type { RouteDoc } from "../../lib/http/route-contract";
import { documentedAnswer } from "../../lib/openapi/answers";
import { apiClient, call, type Api } from "../helpers/api";
import { loggedAttempt } from "../helpers/attempt-row";
import { consumerWithEndpoints, sendMessage } from "../helpers/fixtures";
import { mintPortalLink, portalSession } from "../helpers/portal";
import { apiRoutes, routeKeys } from "../helpers/routes";
import { operatorClient, signedInSession } from "../helpers/session";
import { APP_ORIGIN } from "../helpers/origin";
import { Secret, TOTP } from "otpauth";

/**
 * Every documented operation of app/api/v1/routes.ts, really called against seeded data: each 2xx
 * answer has a status its operation documents and parses with the schema it documents (the list
 * envelope for a list). withApi checks the same on every answer in tests (a drift is a 500
 * `response_contract_violated`, tests/api/answer-check.test.ts); this walk makes sure no route goes
 * unchecked for want of a test that calls it. A route or method with no entry here fails the first
 * test, and so does a documented answer no request here obtains.
 */
type Ids = { consumer: string; uid: string; endpoint: string; spare: string; polling: string; message: string; recovery: string; attempt: string };
/**
 * One call and the 2xx it must answer; `as` a portal session, a Svix app-portal token or a poll
 * token instead of the API key, or no credential; or an admin's dashboard session ("operator"), or
 * another admin's whose second factor's enrollment was started ("enrolling": its code is made from `made.enrollingSecret`).
 */
type Req = { path: string; body?: unknown; status: number; as?: "portal" | "svix-token" | "public" | "poll" | "operator" | "enrolling" };

const since = "2020-01-01T00:00:00Z";
let api: Api;
let A: Ids;
let made: {
  channel: string;
  opsChannel: string;
  apiKey: string;
  operator: string;
  erasure: string;
  linkToken: string;
  otherSession: string;
  enrollingSecret: string;
  pollToken: string;
  pollTokenId: string;
};
let sessions: Record<"operator" | "enrolling", string>;

// Run in this order: what a later call needs is made first, state moves (disable before enable,
// pause before resume before cancel, retrying a run's failed items once it is over) and deletes
// come last.
const TABLE: Record<string, (a: Ids) => Req[]> = {
  "GET /openapi.json": () => [{ path: "/openapi.json", status: 200, as: "public" }],
  "GET /consumers": () => [{ path: "/consumers", status: 200 }],
  "POST /consumers": () => [{ path: "/consumers", body: { uid: "walk-made", name: "Made" }, status: 201 }],
  "GET /consumers/[consumer]": (a) => [{ path: `/consumers/${a.uid}`, status: 200 }],
  "PATCH /consumers/[consumer]": (a) => [{ path: `/consumers/${a.uid}`, body: { alert_emails: ["ops@walk.example"] }, status: 200 }],
  "GET /consumers/[consumer]/endpoints": (a) => [{ path: `/consumers/${a.uid}/endpoints`, status: 200 }],
  "POST /consumers/[consumer]/endpoints": (a) => [{ path: `/consumers/${a.uid}/endpoints`, body: { url: "http://127.0.0.1:9/walk-new" }, status: 201 }],
  "POST /consumers/[consumer]/recover": (a) => [
    { path: `/consumers/${a.uid}/recover`, body: { since, dry_run: true }, status: 200 },
    { path: `/consumers/${a.uid}/recover`, body: { since, include_never_attempted: true }, status: 202 },
  ],
  "POST /consumers/[consumer]/portal-links": (a) => [{ path: `/consumers/${a.uid}/portal-links`, body: {}, status: 201 }],
  "POST /portal/session": () => [{ path: "/portal/session", body: { token: made.linkToken }, status: 201, as: "public" }],
  "GET /endpoints": () => [{ path: "/endpoints", status: 200 }],
  "GET /endpoints/[id]": (a) => [{ path: `/endpoints/${a.endpoint}`, status: 200 }],
  "PATCH /endpoints/[id]": (a) => [{ path: `/endpoints/${a.endpoint}`, body: { description: "walked" }, status: 200 }],
  "POST /endpoints/[id]/disable": (a) => [{ path: `/endpoints/${a.endpoint}/disable`, status: 200 }],
  "POST /endpoints/[id]/enable": (a) => [{ path: `/endpoints/${a.endpoint}/enable`, status: 200 }],
  "POST /endpoints/[id]/filter/test": (a) => [{ path: `/endpoints/${a.endpoint}/filter/test`, body: { filter: { "data.amount": { $gte: 1 } } }, status: 200 }],
  "GET /endpoints/[id]/lines": (a) => [{ path: `/endpoints/${a.endpoint}/lines`, status: 200 }],
  "POST /endpoints/[id]/poll-tokens": (a) => [{ path: `/endpoints/${a.polling}/poll-tokens`, status: 201 }],
  // The walk's message is there: the page is not a long-poll.
  "GET /endpoints/[id]/poll": (a) => [{ path: `/endpoints/${a.polling}/poll?limit=1`, status: 200, as: "poll" }],
  "GET /endpoints/[id]/poll-status": (a) => [{ path: `/endpoints/${a.polling}/poll-status`, status: 200 }],
  "POST /endpoints/[id]/test": (a) => [{ path: `/endpoints/${a.endpoint}/test`, body: {}, status: 202 }],
  "GET /endpoints/[id]/secret": (a) => [{ path: `/endpoints/${a.endpoint}/secret`, status: 200 }],
  "POST /endpoints/[id]/secret/rotate": (a) => [{ path: `/endpoints/${a.endpoint}/secret/rotate`, body: {}, status: 200 }],
  "GET /endpoints/[id]/stats": (a) => [{ path: `/endpoints/${a.endpoint}/stats`, status: 200 }],
  "POST /endpoints/[id]/recover": (a) => [
    { path: `/endpoints/${a.endpoint}/recover`, body: { since, dry_run: true }, status: 200 },
    { path: `/endpoints/${a.endpoint}/recover`, body: { since, include_never_attempted: true }, status: 202 },
  ],
  "GET /event-types": () => [{ path: "/event-types", status: 200 }],
  "POST /event-types": () => [{ path: "/event-types", body: { name: "walk.made", description: "Made by the walk", schema: { type: "object" } }, status: 201 }],
  "GET /event-types/[name]": () => [{ path: "/event-types/walk.made", status: 200 }],
  "PATCH /event-types/[name]": () => [
    { path: "/event-types/walk.made", body: { schema: { type: "object", properties: { walk: { type: "integer" } } }, enforcement: "warn", example: { walk: 1 } }, status: 200 },
  ],
  "GET /event-types/[name]/schemas": () => [{ path: "/event-types/walk.made/schemas", status: 200 }],
  "GET /event-types/[name]/schemas/[version]": () => [{ path: "/event-types/walk.made/schemas/1", status: 200 }],
  "GET /event-types/[name]/schemas/[version]/typescript": () => [{ path: "/event-types/walk.made/schemas/2/typescript", status: 200 }],
  "POST /messages": (a) => [{ path: "/messages", body: { consumer: a.uid, event_type: "invoice.paid", payload: { walk: 1 } }, status: 202 }],
  "POST /messages/batch": (a) => [{ path: "/messages/batch", body: { messages: [{ consumer: a.uid, event_type: "invoice.paid", payload: { walk: 2 } }] }, status: 200 }],
  "GET /messages": () => [{ path: "/messages", status: 200 }],
  "GET /messages/[id]": (a) => [{ path: `/messages/${a.message}`, status: 200 }],
  "GET /messages/[id]/attempts": (a) => [{ path: `/messages/${a.message}/attempts`, status: 200 }],
  "POST /messages/[id]/resend": (a) => [{ path: `/messages/${a.message}/resend`, body: { endpoint_id: a.endpoint }, status: 202 }],
  "GET /attempts": () => [{ path: "/attempts", status: 200 }],
  "GET /stats": () => [{ path: "/stats", status: 200 }],
  "GET /recoveries": () => [{ path: "/recoveries", status: 200 }],
  "GET /recoveries/[id]": (a) => [{ path: `/recoveries/${a.recovery}`, status: 200 }],
  "GET /recoveries/[id]/items": (a) => [{ path: `/recoveries/${a.recovery}/items`, status: 200 }],
  "POST /recoveries/[id]/pause": (a) => [{ path: `/recoveries/${a.recovery}/pause`, status: 200 }],
  "POST /recoveries/[id]/resume": (a) => [{ path: `/recoveries/${a.recovery}/resume`, status: 200 }],
  "POST /recoveries/[id]/cancel": (a) => [{ path: `/recoveries/${a.recovery}/cancel`, status: 200 }],
  // Once the run is over.
  "POST /recoveries/[id]/retry-failed": (a) => [{ path: `/recoveries/${a.recovery}/retry-failed`, body: {}, status: 202 }],
  "GET /alert-channels": () => [{ path: "/alert-channels", status: 200 }],
  "POST /alert-channels": () => [{ path: "/alert-channels", body: { kind: "email", name: "walk", config: { to: ["walk@example.com"] } }, status: 201 }],
  "GET /alert-channels/[id]": () => [{ path: `/alert-channels/${made.channel}`, status: 200 }],
  "PATCH /alert-channels/[id]": () => [{ path: `/alert-channels/${made.channel}`, body: { name: "walked" }, status: 200 }],
  "POST /alert-channels/[id]/test": () => [{ path: `/alert-channels/${made.channel}/test`, status: 202 }],
  "GET /alerts": () => [{ path: "/alerts", status: 200 }],
  "GET /api-keys": () => [{ path: "/api-keys", status: 200 }],
  "POST /api-keys": () => [{ path: "/api-keys", body: { name: "walk" }, status: 201 }],
  "GET /operators": () => [{ path: "/operators", status: 200 }],
  "POST /operators": () => [{ path: "/operators", body: { email: "walk@example.com", password: "long enough pw", role: "viewer" }, status: 201 }],
  "GET /operators/[id]/sessions": () => [{ path: `/operators/${made.operator}/sessions`, status: 200, as: "operator" }],
  "GET /sessions": () => [{ path: "/sessions", status: 200, as: "operator" }],
  "DELETE /sessions/[id]": () => [{ path: `/sessions/${made.otherSession}`, status: 204, as: "operator" }],
  "POST /sessions/end-others": () => [{ path: "/sessions/end-others", status: 200, as: "operator" }],
  "GET /two-factor": () => [{ path: "/two-factor", status: 200, as: "operator" }],
  "POST /two-factor/enrollment": () => [{ path: "/two-factor/enrollment", status: 201, as: "operator" }],
  "POST /two-factor/enrollment/confirm": () => [
    {
      path: "/two-factor/enrollment/confirm",
      body: { code: new TOTP({ secret: Secret.fromBase32(made.enrollingSecret) }).generate() },
      status: 200,
      as: "enrolling",
    },
  ],
  "GET /two-factor/policy": () => [{ path: "/two-factor/policy", status: 200 }],
  "PUT /two-factor/policy": () => [{ path: "/two-factor/policy", body: { required: false }, status: 200 }],
  "GET /audit-events": () => [{ path: "/audit-events", status: 200 }],
  "GET /data-lifecycle": () => [{ path: "/data-lifecycle", status: 200 }],
  "GET /erasures/[id]": () => [{ path: `/erasures/${made.erasure}`, status: 200 }],

  // The Svix-compatible surface.
  "GET /health": () => [{ path: "/health", status: 204 }],
  "GET /app": () => [{ path: "/app", status: 200 }],
  "POST /app": (a) => [
    { path: "/app", body: { name: "Walk Svix", uid: "walk-svix" }, status: 201 },
    { path: "/app?get_if_exists=true", body: { name: "Walk Svix", uid: a.uid }, status: 200 },
  ],
  "GET /app/[app_id]": (a) => [{ path: `/app/${a.uid}`, status: 200 }],
  "PUT /app/[app_id]": () => [
    { path: "/app/walk-put", body: { name: "Walk Put" }, status: 201 },
    // Replaced whole: a uid left out would be unset.
    { path: "/app/walk-put", body: { name: "Walk Put again", uid: "walk-put" }, status: 200 },
  ],
  "PATCH /app/[app_id]": () => [{ path: "/app/walk-put", body: { name: "Walk Patched" }, status: 200 }],
  "GET /event-type": () => [{ path: "/event-type", status: 200 }],
  "POST /event-type": () => [{ path: "/event-type", body: { name: "walk.svix", description: "Svix-made" }, status: 201 }],
  "GET /event-type/[event_type_name]": () => [{ path: "/event-type/invoice.paid", status: 200 }],
  "PUT /event-type/[event_type_name]": () => [
    { path: "/event-type/walk.put", body: { description: "put" }, status: 201 },
    { path: "/event-type/walk.put", body: { description: "put again" }, status: 200 },
  ],
  "PATCH /event-type/[event_type_name]": () => [{ path: "/event-type/walk.put", body: { description: "patched" }, status: 200 }],
  "GET /app/[app_id]/endpoint": (a) => [{ path: `/app/${a.uid}/endpoint`, status: 200 }],
  "POST /app/[app_id]/endpoint": (a) => [{ path: `/app/${a.uid}/endpoint`, body: { url: "http://127.0.0.1:9/walk-svix", uid: "walk-svix" }, status: 201 }],
  "GET /app/[app_id]/endpoint/[endpoint_id]": (a) => [{ path: `/app/${a.uid}/endpoint/${a.endpoint}`, status: 200 }],
  "PUT /app/[app_id]/endpoint/[endpoint_id]": (a) => [
    { path: `/app/${a.uid}/endpoint/walk-svix-put`, body: { url: "http://127.0.0.1:9/walk-put" }, status: 201 },
    { path: `/app/${a.uid}/endpoint/walk-svix-put`, body: { url: "http://127.0.0.1:9/walk-put-again" }, status: 200 },
  ],
  "PATCH /app/[app_id]/endpoint/[endpoint_id]": (a) => [{ path: `/app/${a.uid}/endpoint/${a.endpoint}`, body: { description: "svix walked" }, status: 200 }],
  "GET /app/[app_id]/endpoint/[endpoint_id]/headers": (a) => [{ path: `/app/${a.uid}/endpoint/${a.endpoint}/headers`, status: 200 }],
  "PUT /app/[app_id]/endpoint/[endpoint_id]/headers": (a) => [{ path: `/app/${a.uid}/endpoint/${a.endpoint}/headers`, body: { headers: { "x-team": "walk" } }, status: 204 }],
  "PATCH /app/[app_id]/endpoint/[endpoint_id]/headers": (a) => [{ path: `/app/${a.uid}/endpoint/${a.endpoint}/headers`, body: { headers: { "x-env": "walk" } }, status: 204 }],
  "GET /app/[app_id]/endpoint/[endpoint_id]/secret": (a) => [{ path: `/app/${a.uid}/endpoint/${a.endpoint}/secret`, status: 200 }],
  "POST /app/[app_id]/endpoint/[endpoint_id]/secret/rotate": (a) => [{ path: `/app/${a.uid}/endpoint/${a.endpoint}/secret/rotate`, body: {}, status: 204 }],
  "GET /app/[app_id]/endpoint/[endpoint_id]/stats": (a) => [{ path: `/app/${a.uid}/endpoint/${a.endpoint}/stats`, status: 200 }],
  "POST /app/[app_id]/endpoint/[endpoint_id]/recover": (a) => [{ path: `/app/${a.uid}/endpoint/${a.endpoint}/recover`, body: { since }, status: 202 }],
  "POST /app/[app_id]/endpoint/[endpoint_id]/replay-missing": (a) => [{ path: `/app/${a.uid}/endpoint/${a.endpoint}/replay-missing`, body: { since }, status: 202 }],
  "GET /app/[app_id]/endpoint/[endpoint_id]/msg": (a) => [{ path: `/app/${a.uid}/endpoint/${a.endpoint}/msg`, status: 200 }],
  "POST /app/[app_id]/msg": (a) => [{ path: `/app/${a.uid}/msg`, body: { eventType: "invoice.paid", payload: { walk: 3 } }, status: 202 }],
  "GET /app/[app_id]/msg": (a) => [{ path: `/app/${a.uid}/msg`, status: 200 }],
  "GET /app/[app_id]/msg/[msg_id]": (a) => [{ path: `/app/${a.uid}/msg/${a.message}`, status: 200 }],
  "GET /app/[app_id]/msg/[msg_id]/attempt/[attempt_id]": (a) => [{ path: `/app/${a.uid}/msg/${a.message}/attempt/${a.attempt}`, status: 200 }],
  "GET /app/[app_id]/msg/[msg_id]/endpoint": (a) => [{ path: `/app/${a.uid}/msg/${a.message}/endpoint`, status: 200 }],
  "POST /app/[app_id]/msg/[msg_id]/endpoint/[endpoint_id]/resend": (a) => [{ path: `/app/${a.uid}/msg/${a.message}/endpoint/${a.endpoint}/resend`, status: 202 }],
  "GET /app/[app_id]/poller/[sink_id]": (a) => [{ path: `/app/${a.uid}/poller/${a.polling}`, status: 200 }],
  "GET /app/[app_id]/poller/[sink_id]/consumer/[consumer_id]": (a) => [{ path: `/app/${a.uid}/poller/${a.polling}/consumer/walker`, status: 200 }],
  "POST /app/[app_id]/poller/[sink_id]/consumer/[consumer_id]/seek": (a) => [
    { path: `/app/${a.uid}/poller/${a.polling}/consumer/walker/seek`, body: { after: new Date(Date.now() - 60_000).toISOString() }, status: 200 },
  ],
  "GET /app/[app_id]/attempt/msg/[msg_id]": (a) => [{ path: `/app/${a.uid}/attempt/msg/${a.message}`, status: 200 }],
  "GET /app/[app_id]/attempt/endpoint/[endpoint_id]": (a) => [{ path: `/app/${a.uid}/attempt/endpoint/${a.endpoint}`, status: 200 }],
  "POST /app/[app_id]/endpoint/[endpoint_id]/send-example": (a) => [{ path: `/app/${a.uid}/endpoint/${a.endpoint}/send-example`, body: { eventType: "invoice.paid" }, status: 202 }],
  "POST /app/[app_id]/msg/bulk-expunge": (a) => [{ path: `/app/${a.uid}/msg/bulk-expunge`, body: { ids: ["walk-unknown"] }, status: 200 }],
  "GET /background-task": () => [{ path: "/background-task", status: 200 }],
  "GET /background-task/[task_id]": (a) => [{ path: `/background-task/${a.recovery}`, status: 200 }],
  "POST /auth/app-portal-access/[app_id]": (a) => [{ path: `/auth/app-portal-access/${a.uid}`, body: {}, status: 200 }],
  "POST /auth/logout": () => [{ path: "/auth/logout", status: 204, as: "svix-token" }],
  "POST /auth/app/[app_id]/expire-all": (a) => [{ path: `/auth/app/${a.uid}/expire-all`, body: {}, status: 204 }],
  "POST /environment/export": () => [{ path: "/environment/export", status: 200 }],
  "POST /environment/import": () => [{ path: "/environment/import", body: { eventTypes: [{ name: "walk.imported", description: "Imported" }] }, status: 204 }],
  "POST /stats/usage/app": () => [{ path: "/stats/usage/app", body: { since, until: new Date().toISOString() }, status: 202 }],
  "GET /operational-webhook/endpoint": () => [{ path: "/operational-webhook/endpoint", status: 200 }],
  "POST /operational-webhook/endpoint": () => [{ path: "/operational-webhook/endpoint", body: { url: "http://127.0.0.1:9/walk-ops-svix" }, status: 201 }],
  "GET /operational-webhook/endpoint/[endpoint_id]": () => [{ path: `/operational-webhook/endpoint/${made.opsChannel}`, status: 200 }],
  "PUT /operational-webhook/endpoint/[endpoint_id]": () => [{ path: `/operational-webhook/endpoint/${made.opsChannel}`, body: { url: "http://127.0.0.1:9/walk-ops-put" }, status: 200 }],
  "GET /operational-webhook/endpoint/[endpoint_id]/secret": () => [{ path: `/operational-webhook/endpoint/${made.opsChannel}/secret`, status: 200 }],
  "POST /operational-webhook/endpoint/[endpoint_id]/secret/rotate": () => [{ path: `/operational-webhook/endpoint/${made.opsChannel}/secret/rotate`, body: {}, status: 204 }],
  "GET /operational-webhook/endpoint/[endpoint_id]/headers": () => [{ path: `/operational-webhook/endpoint/${made.opsChannel}/headers`, status: 200 }],
  "PUT /operational-webhook/endpoint/[endpoint_id]/headers": () => [{ path: `/operational-webhook/endpoint/${made.opsChannel}/headers`, body: { headers: {} }, status: 204 }],

  // Last: what deletes.
  "DELETE /portal/session": () => [{ path: "/portal/session", status: 204, as: "portal" }],
  "DELETE /consumers/[consumer]/portal-sessions": (a) => [{ path: `/consumers/${a.uid}/portal-sessions`, status: 204 }],
  "DELETE /app/[app_id]/msg/[msg_id]/attempt/[attempt_id]/content": (a) => [{ path: `/app/${a.uid}/msg/${a.message}/attempt/${a.attempt}/content`, status: 204 }],
  "DELETE /messages/[id]/payload": (a) => [{ path: `/messages/${a.message}/payload`, status: 204 }],
  "DELETE /app/[app_id]/msg/[msg_id]/content": (a) => [{ path: `/app/${a.uid}/msg/${a.message}/content`, status: 204 }],
  "POST /app/[app_id]/msg/expunge-all-contents": (a) => [{ path: `/app/${a.uid}/msg/expunge-all-contents`, status: 202 }],
  "DELETE /app/[app_id]/endpoint/[endpoint_id]": (a) => [{ path: `/app/${a.uid}/endpoint/walk-svix`, status: 204 }],
  "DELETE /event-type/[event_type_name]": () => [{ path: "/event-type/walk.put", status: 204 }],
  "DELETE /app/[app_id]": () => [{ path: "/app/walk-put", status: 204 }],
  "DELETE /endpoints/[id]": (a) => [{ path: `/endpoints/${a.spare}`, status: 204 }],
  "DELETE /endpoints/[id]/poll-tokens/[token_id]": (a) => [{ path: `/endpoints/${a.polling}/poll-tokens/${made.pollTokenId}`, status: 204 }],
  "DELETE /operational-webhook/endpoint/[endpoint_id]": () => [{ path: `/operational-webhook/endpoint/${made.opsChannel}`, status: 204 }],
  "DELETE /alert-channels/[id]": () => [{ path: `/alert-channels/${made.channel}`, status: 204 }],
  "DELETE /api-keys/[id]": () => [{ path: `/api-keys/${made.apiKey}`, status: 204 }],
  "DELETE /operators/[id]/sessions": () => [{ path: `/operators/${made.operator}/sessions`, status: 200, as: "operator" }],
  "DELETE /operators/[id]/two-factor": () => [{ path: `/operators/${made.operator}/two-factor`, status: 204 }],
  "DELETE /operators/[id]": () => [{ path: `/operators/${made.operator}`, status: 204 }],
  "DELETE /consumers/[consumer]": () => [{ path: "/consumers/walk-made", status: 204 }],
};

/**
 * Documented answers no request here obtains, each with the reason: a background erasure takes a
 * consumer over ERASURE_INLINE_MESSAGES (tests/lifecycle/ makes one; the 202 is checked there).
 */
const NOT_WALKED = new Set(["DELETE /consumers/[consumer] 202"]);

const documented = new Map<string, RouteDoc>();
for (const route of apiRoutes()) {
  for (const { method, contract } of route.methods) if (contract?.doc) documented.set(`${method} ${route.folder}`, contract.doc);
}

async function seed(): Promise<Ids> {
  const uid = "walk-corp";
  const { consumerId, endpoints } = await consumerWithEndpoints(api, ["http://127.0.0.1:9/walk-hook", "http://127.0.0.1:9/walk-spare"], { consumer: { uid, name: "Walk Corp" } });
  const [endpoint, spare] = endpoints.map((e) => e.id) as [string, string];
  const polling = await api.post(`/api/v1/consumers/${uid}/endpoints`, { kind: "polling" });
  expect(polling.status, polling.text).toBe(201);
  const pollToken = await api.post(`/api/v1/endpoints/${polling.body.id}/poll-tokens`);
  const message = await sendMessage(api, uid, { payload: { walk: 0 } });
  const recovery = await api.post(`/api/v1/endpoints/${endpoint}/recover`, { since, include_never_attempted: true });
  expect(recovery.status, recovery.text).toBe(202);
  const attempt = await loggedAttempt(message.id, endpoint);
  await api.post("/api/v1/event-types", { name: "invoice.paid" });
  const channel = await api.post("/api/v1/alert-channels", { kind: "email", name: "ops", config: { to: ["ops@example.com"] } });
  const key = await api.post("/api/v1/api-keys", { name: "other" });
  const operator = await api.post("/api/v1/operators", { email: "other@example.com", password: "long enough pw", role: "viewer" });
  // A consumer erased within the request still leaves its erasure to read.
  await api.post("/api/v1/consumers", { uid: "walk-erased", name: "Erased" });
  const erased = await api.del("/api/v1/consumers/walk-erased");
  expect(erased.status, erased.text).toBe(204);
  const erasures = await api.get("/api/v1/data-lifecycle");
  const erasure = (erasures.body.erasures as { id: string }[] | undefined)?.[0]?.id;
  const ops = await api.post("/api/v1/alert-channels", { kind: "webhook", name: "walk ops", config: { url: "http://127.0.0.1:9/walk-ops" } });
  const admin = await operatorClient("admin");
  const enrolling = await operatorClient("admin");
  const enrollment = await enrolling.post("/api/v1/two-factor/enrollment");
  expect(enrollment.status, enrollment.text).toBe(201);
  sessions = { operator: admin.cookie, enrolling: enrolling.cookie };
  made = {
    channel: channel.body.id,
    opsChannel: ops.body.id,
    apiKey: key.body.id,
    operator: operator.body.id,
    erasure: erasure ?? "",
    linkToken: await mintPortalLink(api, uid),
    otherSession: (await signedInSession(admin.operator.id)).sessionId,
    enrollingSecret: enrollment.body.secret,
    pollToken: pollToken.body.token,
    pollTokenId: pollToken.body.id,
  };
  return { consumer: consumerId, uid, endpoint, spare, polling: polling.body.id, message: message.id, recovery: recovery.body.id, attempt };
}

async function credential(req: Req): Promise<string | null> {
  if (req.as === "public") return null;
  if (req.as === "poll") return made.pollToken;
  if (req.as === "portal") return (await portalSession(api, A.uid)).token;
  if (req.as === "svix-token") {
    const access = await api.post(`/api/v1/auth/app-portal-access/${A.uid}`, {});
    return access.body.token as string;
  }
  return api.key;
}

beforeAll(async () => {
  api = await apiClient();
  A = await seed();
});

describe("every documented answer of /api/v1, really called", () => {
  it("has an entry for every route and method that documents an operation", () => {
    expect(documented.size).toBeGreaterThan(90);
    expect([...documented.keys()].filter((key) => !(key in TABLE))).toEqual([]);
    expect(Object.keys(TABLE).filter((key) => !documented.has(key))).toEqual([]);
    expect(routeKeys().filter((key) => !documented.has(key)).every((key) => key.includes("[..."))).toBe(true);
  });

  it("answers each with a documented status and a body its documented schema parses", async () => {
    const seen = new Set<string>();
    const drift: string[] = [];
    for (const [key, requests] of Object.entries(TABLE)) {
      const [method] = key.split(" ") as [string];
      const doc = documented.get(key)!;
      for (const req of requests(A)) {
        const session = req.as === "operator" || req.as === "enrolling" ? { cookie: sessions[req.as], origin: APP_ORIGIN } : undefined;
        const res = await call(method, `/api/v1${req.path}`, session ? { body: req.body, headers: session } : { body: req.body, key: await credential(req) });
        expect(res.status, `${key} (${req.path}): ${res.text}`).toBe(req.status);
        seen.add(`${key} ${res.status}`);
        const schema = documentedAnswer(doc, res.status);
        expect(schema, `${key} answered ${res.status}, which its operation does not document`).not.toBeUndefined();
        if (!schema) continue;
        const parsed = schema.safeParse(res.body);
        if (!parsed.success) drift.push(`${key} ${res.status}: ${JSON.stringify(parsed.error.issues)}`);
      }
    }
    expect(drift).toEqual([]);
    const unwalked = [...documented].flatMap(([key, doc]) =>
      [doc.success, ...(doc.also ?? [])].filter((answer) => answer.schema).map((answer) => `${key} ${answer.status}`),
    );
    expect(unwalked.filter((answer) => !seen.has(answer) && !NOT_WALKED.has(answer))).toEqual([]);
  });
});
