import { NotFoundError } from "../errors";
import { NotImplementedError } from "./errors";
import { svixRoute } from "./route";

/**
 * Svix operations this server knows and does not serve: 501 `not_implemented` (docs/svix.md, the
 * support matrix). Anything else unmatched under the Svix paths is a JSON 404. Paths are relative
 * to /api/v1; `*` is one path segment.
 */
export const UNSERVED: { method: string; path: string; what: string }[] = [
  { method: "*", path: "/app/*/integration/**", what: "Integrations (integration.*)" },
  { method: "*", path: "/app/*/integration", what: "Integrations (integration.*)" },
  { method: "*", path: "/app/*/endpoint/*/transformation", what: "Transformations (endpoint.transformationGet / transformationPartialUpdate)" },
  { method: "POST", path: "/app/*/endpoint/*/transformation/simulate", what: "Transformation simulation" },
  { method: "POST", path: "/app/*/endpoint/*/send-example", what: "Sending an example (endpoint.sendExample)" },
  { method: "POST", path: "/app/*/endpoint/*/bulk-replay", what: "Bulk replay (endpoint.bulkReplay)" },
  { method: "DELETE", path: "/app/*/msg/*/content", what: "Expunging a message's payload (message.expungeContent)" },
  { method: "DELETE", path: "/app/*/msg/*/attempt/*/content", what: "Expunging an attempt's response (messageAttempt.expungeContent)" },
  { method: "GET", path: "/app/*/msg/*/endpoint/*/attempt", what: "Attempts of a message to one endpoint, deprecated by Svix (messageAttempt.listAttemptsForEndpoint)" },
  { method: "POST", path: "/app/*/msg/precheck/active", what: "Message precheck (message.precheck)" },
  { method: "*", path: "/app/*/poller/**", what: "Polling endpoints (message.poller)" },
  { method: "*", path: "/app/*/events", what: "The events stream (message.events)" },
  { method: "*", path: "/app/*/stream/**", what: "Streams" },
  { method: "POST", path: "/event-type/import/openapi", what: "Importing event types from OpenAPI (eventType.importOpenapi)" },
  { method: "POST", path: "/auth/dashboard-access/*", what: "Dashboard access, deprecated by Svix (authentication.dashboardAccess)" },
  { method: "POST", path: "/auth/app/*/poller/token/rotate", what: "Poller tokens (authentication.rotatePollerToken)" },
  { method: "*", path: "/auth/stream-portal-access/*", what: "Stream portal access" },
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

/** The operation `method path` names, if it is one of those above. */
export function unservedOperation(method: string, path: string) {
  return UNSERVED.find((op) => (op.method === "*" || op.method === method) && matches(op.path, path));
}

/**
 * The catch-all of a Svix folder (app/api/v1/{app,event-type,auth,background-task}/[...rest]):
 * authenticated first, like our own catch-all, so it tells an unauthenticated caller nothing; then
 * a 501 for a known operation not served, else a JSON 404.
 */
export const svixCatchAll = svixRoute(
  async ({ req }) => {
    const path = new URL(req.url).pathname.replace(/^.*?\/api\/v1(?=\/)/, "");
    const unserved = unservedOperation(req.method, path);
    if (unserved) throw new NotImplementedError(unserved.what);
    throw new NotFoundError("route", `${req.method} ${path}`);
  },
  { portal: false, role: "read", doc: null },
);
