/**
 * The operations of Svix's API document (tests/fixtures/svix-openapi.json) this server does not
 * serve: 501 `not_implemented` with the sentence `why`, never a 404 or 405. Paths are relative to
 * their base path (SVIX_BASES: /api/v1, or Svix Ingest's /ingest/api/v1 for `base: "ingest"`); `*`
 * is one path segment, `**` any number (none too). A family whose every operation is Svix's alone
 * (streams, connectors, Ingest…) takes every method; elsewhere the methods are the document's.
 * tests/svix/spec-coverage.test.ts fails for an operation of the document that is neither served by
 * a route nor named here, and for an entry here that names none of them (but `sdkOnly`); docs/svix.md's matrix is
 * printed from the same (scripts/svix-matrix.ts).
 */
/** Where Svix's document puts its operations: its API, and Svix Ingest (another product) on a base path of its own. */
export const SVIX_BASES = { api: "/api/v1", ingest: "/ingest/api/v1" } as const;
export type SvixBase = keyof typeof SVIX_BASES;

export type Unserved = {
  /** The base path `path` is below; /api/v1 when absent. */
  base?: "ingest";
  methods: readonly string[];
  path: string;
  what: string;
  why: string;
  /** An operation the SDKs still have and the document no longer does. */
  sdkOnly?: true;
};

const ANY = ["*"] as const;
const NO_ORG = "this server has one tenant of its own, run by its operators, with no Svix organization, environment or account to manage.";
const NO_STREAMS = "Svix Stream is a separate product of Svix's (events to sinks, not webhooks to endpoints); this server has no streams.";
const NO_TRANSFORMATIONS = "this server runs no customer code on a payload (no transformations).";
const NO_POLLER_TOKENS = "a polling endpoint is read here with our own poll tokens (POST /api/v1/endpoints/{id}/poll-tokens) or this API's credentials, not Svix's poller tokens.";
const NO_POLLER_V2 = "the poller v2 (explicit commits) is not served; message.poller (/app/{app_id}/poller/…) reads the same polling endpoints.";
const NO_MCP = "this server has no MCP server for such tokens to open.";

export const UNSERVED: readonly Unserved[] = [
  // Authentication
  { methods: ["GET"], path: "/auth/whoami", what: "Who-am-I (authentication.whoami)", why: "our API keys belong to no Svix organization or environment to name." },
  { methods: ANY, path: "/auth/org-group-admin-token/**", what: "Organization group admin tokens", why: NO_ORG },
  { methods: ANY, path: "/auth/app/*/poller/*/token/**", what: "Poller tokens (authentication.rotatePollerToken, getPollerToken)", why: NO_POLLER_TOKENS },
  { methods: ANY, path: "/auth/app/*/mcp-token/**", what: "MCP tokens", why: NO_MCP },
  { methods: ANY, path: "/auth/dashboard/**", what: "Dashboard MCP tokens", why: NO_MCP },
  { methods: ["POST"], path: "/auth/app/*/create-message-token", what: "Message tokens (authentication.createMessageToken)", why: "sending takes one of our API keys; there are no per-application sending tokens." },
  { methods: ["POST"], path: "/auth/one-time-token", what: "One-time token exchange", why: "Svix's dashboard sign-in; our portal links are exchanged by POST /api/v1/portal/session." },
  { methods: ANY, path: "/auth/stream-portal-access/*", what: "Stream portal access", why: NO_STREAMS },
  { methods: ANY, path: "/auth/stream-logout", what: "Stream portal logout", why: NO_STREAMS },
  { methods: ANY, path: "/auth/stream/**", what: "Stream tokens", why: NO_STREAMS },
  // Account management
  { methods: ANY, path: "/management/**", what: "Environment and account management (management.*)", why: NO_ORG },
  { methods: ["GET"], path: "/environment/settings", what: "Environment settings (environment.getSettings)", why: "our settings are the server's environment variables (docs/configuration.md), not an API resource." },
  // Applications
  { methods: ["PATCH"], path: "/app/*/alert-email", what: "An application's alert email (application.patchAlertEmail)", why: "a consumer's alert emails are set with PATCH /api/v1/consumers/{consumer} (`alert_emails`)." },
  { methods: ["GET"], path: "/app/stats/count-active", what: "Counting active applications (application.countActive)", why: "not derived here; GET /api/v1/consumers lists them." },
  { methods: ["GET"], path: "/app/*/stats/attempts", what: "An application's attempt statistics (application.stats.attempts)", why: "GET /api/v1/stats?consumer= answers them from the rollup, in our shape." },
  { methods: ["GET"], path: "/stats/app/*/attempt", what: "An application's attempt statistics (statistics.appAttempts)", why: "GET /api/v1/stats?consumer= answers them from the rollup, in our shape." },
  { methods: ["GET"], path: "/stats/endpoint/count", what: "Counting endpoints (statistics.endpointCount)", why: "not derived here; GET /api/v1/consumers/{consumer}/endpoints lists them." },
  { methods: ["PUT"], path: "/stats/usage/event-types", what: "Event-type usage aggregation (statistics.aggregateEventTypes)", why: "not computed as a background task here; GET /api/v1/consumers/{consumer}/endpoints shows each endpoint's event types." },
  // Endpoints
  { methods: ["GET"], path: "/app/*/endpoint/*/connector", what: "An endpoint's connector (endpoint.getConnector)", why: "this server has no connectors." },
  { methods: ["PUT"], path: "/app/*/endpoint/*/connector/oauth/hubspot", what: "HubSpot OAuth of an endpoint", why: "this server has no connectors." },
  { methods: ["POST"], path: "/app/*/endpoint/*/cancel-msgs", what: "Canceling an endpoint's pending messages (endpoint.cancelMsgs)", why: "disabling the endpoint cancels them: PATCH it with `disabled: true`." },
  { methods: ["GET", "PATCH"], path: "/app/*/endpoint/*/transformation", what: "Transformations (endpoint.transformationGet, transformationPartialUpdate)", why: NO_TRANSFORMATIONS },
  { methods: ["POST"], path: "/app/*/endpoint/*/transformation/simulate", what: "Transformation simulation", why: NO_TRANSFORMATIONS },
  { methods: ["POST"], path: "/app/*/endpoint/*/bulk-replay", what: "Bulk replay (endpoint.bulkReplay)", why: "replays are recovery runs here: endpoint.recover and replayMissing, or POST /api/v1/endpoints/{id}/recover with its filters." },
  { methods: ["GET", "PUT", "DELETE"], path: "/app/*/endpoint/*/oauth", what: "OAuth for an endpoint", why: "this server signs each delivery (Standard Webhooks) and sends custom headers; it fetches no OAuth tokens." },
  { methods: ["GET"], path: "/app/*/endpoint/*/oauth-config", what: "OAuth for an endpoint", why: "this server signs each delivery (Standard Webhooks) and sends custom headers; it fetches no OAuth tokens." },
  { methods: ["GET", "PUT"], path: "/app/*/endpoint/*/ca", what: "An endpoint's server CA", why: "deliveries trust the system's certificate authorities; there is no per-endpoint CA." },
  { methods: ["GET", "PUT", "DELETE"], path: "/app/*/endpoint/*/mtls", what: "Mutual TLS for an endpoint", why: "deliveries present no client certificate." },
  { methods: ["GET"], path: "/app/*/endpoint/*/mtls-config", what: "Mutual TLS for an endpoint", why: "deliveries present no client certificate." },
  { methods: ["GET"], path: "/app/*/endpoint/*/rate-limit-status", what: "An endpoint's throttling status (endpoint.getThrottlingStatus)", why: "GET /api/v1/endpoints/{id} shows its state and rate limit." },
  { methods: ["POST"], path: "/app/*/auto-config", what: "Webhooks auto-config", why: "a hosted Svix feature with no counterpart here." },
  { methods: ["GET", "PUT"], path: "/app/*/endpoint/*/auto-config", what: "Webhooks auto-config", why: "a hosted Svix feature with no counterpart here." },
  { methods: ["POST"], path: "/app/*/endpoint/*/auto-config/rotate", what: "Webhooks auto-config", why: "a hosted Svix feature with no counterpart here." },
  // Event types
  { methods: ["POST"], path: "/event-type/import/openapi", what: "Importing event types from OpenAPI (eventType.importOpenapi)", why: "event types are made one by one, or imported from a Svix deployment (`svix import`)." },
  { methods: ["POST"], path: "/event-type/export/openapi", what: "Exporting event types as OpenAPI (eventType.exportOpenapi)", why: "each event type's schema versions and TypeScript are served by GET /api/v1/event-types/{name}/schemas." },
  { methods: ["GET", "PUT"], path: "/event-type/*/retry-schedule", what: "An event type's retry schedule", why: "the retry schedule is one for the server (RETRY_SCHEDULE), not per event type." },
  // Messages
  { methods: ["POST"], path: "/app/*/msg/precheck/active", what: "Message precheck (message.precheck)", why: "not computed here; a message with no endpoint to take it is accepted and delivered to none." },
  { methods: ["GET"], path: "/app/*/events", what: "The events stream (message.events)", why: "message.list pages the same messages." },
  { methods: ["GET"], path: "/events", what: "The environment's events stream (events.stream)", why: "message.list pages each application's messages." },
  { methods: ["POST"], path: "/app/*/msg/search", what: "Message search (message.search)", why: "message.list filters by event type, channel, tag and time; GET /api/v1/messages by payload content." },
  { methods: ["GET"], path: "/app/*/msg/*/raw", what: "A message's raw payload (message.getRawPayload)", why: "payloads are kept as JSON; message.get answers them." },
  { methods: ["POST"], path: "/app/*/endpoint/*/msg/test-attempt", what: "Test attempts (message.testAttempt)", why: "endpoint.sendExample sends an event type's example to one endpoint." },
  { methods: ["POST"], path: "/msg/broadcast", what: "Broadcasting a message to every application (message.broadcast)", why: "a message goes to one application here; send one per application." },
  { methods: ANY, path: "/app/*/polling-endpoint/**", what: "Polling endpoints (message.poller v2)", why: NO_POLLER_V2 },
  { methods: ["POST"], path: "/app/*/inbound/rotate-url", what: "Inbound URLs (inbound.rotateUrl)", why: "this server sends webhooks; it receives none." },
  // Attempts
  { methods: ["GET"], path: "/app/*/attempt/endpoint/*/count", what: "Counting an endpoint's attempts (messageAttempt.countByEndpoint)", why: "endpoint.getStats counts them over a window." },
  { methods: ["GET"], path: "/app/*/msg/*/attempt/*/headers", what: "An attempt's headers (messageAttempt.getHeaders)", why: "the headers sent are not kept per attempt through the Svix API." },
  {
    methods: ["GET"],
    path: "/app/*/msg/*/endpoint/*/attempt",
    what: "Attempts of a message to one endpoint, deprecated by Svix (messageAttempt.listAttemptsForEndpoint)",
    why: "messageAttempt.listByMsg with `endpoint_id` answers the same.",
    sdkOnly: true,
  },
  // Whole families that are other Svix products
  { methods: ANY, path: "/app/*/integration/**", what: "Integrations (integration.*)", why: "an application's integration keys are a hosted Svix feature; our API keys are the server's." },
  { methods: ANY, path: "/app/*/destination/**", what: "Destinations (destination.*)", why: "this server's non-HTTP destinations are endpoint kinds of its own API (docs/delivery.md)." },
  { methods: ANY, path: "/app/*/stream/**", what: "Stream sinks", why: NO_STREAMS },
  { methods: ANY, path: "/stream/**", what: "Streams", why: NO_STREAMS },
  { methods: ANY, path: "/connector/**", what: "Connectors (connector.*)", why: "this server has no connectors." },
  // Svix Ingest, under /ingest/api/v1 (app/ingest/api/v1/[...path])
  {
    base: "ingest",
    methods: ANY,
    path: "/source/**",
    what: "Svix Ingest (ingest.source, ingest.endpoint, ingest.log)",
    why: "Svix Ingest receives webhooks into Svix from other senders and forwards them on; this server is a webhook sender, and receives none.",
  },
];

function matches(pattern: string, path: string): boolean {
  const p = pattern.split("/").filter(Boolean);
  const s = path.split("/").filter(Boolean);
  for (let i = 0; i < p.length; i++) {
    if (p[i] === "**") return s.length >= i;
    if (i >= s.length || (p[i] !== "*" && p[i] !== s[i])) return false;
  }
  return p.length === s.length;
}

/** The unserved operation `method path` (relative to `base`'s path) names, if it is one of those above. */
export function unservedOperation(method: string, path: string, base: SvixBase = "api"): Unserved | undefined {
  return UNSERVED.find((op) => (op.base ?? "api") === base && (op.methods.includes("*") || op.methods.includes(method)) && matches(op.path, path));
}

/** A request's base path (Svix Ingest's when /ingest comes before its /api/v1) and its path below it. */
export function svixPath(req: Request): { base: SvixBase; path: string } {
  const pathname = new URL(req.url).pathname;
  const [, before = "", below = pathname] = /^(.*?)\/api\/v1(\/.*)$/.exec(pathname) ?? [];
  return { base: before.endsWith("/ingest") ? "ingest" : "api", path: below };
}

/** The unserved operation a request names, if any. */
export function unservedRequest(req: Request): Unserved | undefined {
  const { base, path } = svixPath(req);
  return unservedOperation(req.method, path, base);
}

