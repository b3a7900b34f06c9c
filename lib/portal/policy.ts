import type { PortalCapability } from "../db/schema/access";
import { ForbiddenError } from "../errors";
import type { PortalActor } from "./authenticate-portal-session";

/**
 * What a portal session may do, per route, in one table the REST wrapper consults before any handler
 * runs. Keys are `METHOD /path` with the route file's own [segments] under /api/v1.
 * - "scoped": allowed; lib/ limits every query to the session's consumer (another's objects are 404).
 * - "forbidden": a route a customer never uses.
 * - a capability: allowed, scoped, when the session's link granted it.
 * A route or method missing here is refused (fail closed), and tests/portal-scope.test.ts fails for
 * every route file whose methods have no entry.
 */
export type PortalRule = "scoped" | "forbidden" | PortalCapability;

export const PORTAL_POLICY: Record<string, PortalRule> = {
  // A list of one: lib/consumers/queries.ts limits it to the session's consumer.
  "GET /consumers": "scoped",
  "POST /consumers": "forbidden",
  "GET /consumers/[consumer]": "scoped",
  // Only alert_emails (lib/consumers/update-consumer.ts refuses the other fields): where alerts
  // about the endpoints go is part of managing them.
  "PATCH /consumers/[consumer]": "manage_endpoints",
  "DELETE /consumers/[consumer]": "forbidden",
  "POST /consumers/[consumer]/portal-links": "forbidden",
  "DELETE /consumers/[consumer]/portal-sessions": "forbidden",
  "GET /consumers/[consumer]/endpoints": "scoped",
  "POST /consumers/[consumer]/endpoints": "manage_endpoints",
  "POST /consumers/[consumer]/recover": "recover",

  "GET /endpoints/[id]": "scoped",
  "PATCH /endpoints/[id]": "manage_endpoints",
  "DELETE /endpoints/[id]": "manage_endpoints",
  "POST /endpoints/[id]/enable": "manage_endpoints",
  "POST /endpoints/[id]/disable": "manage_endpoints",
  "POST /endpoints/[id]/test": "manage_endpoints",
  "GET /endpoints/[id]/secret": "view_secrets",
  "POST /endpoints/[id]/secret/rotate": "view_secrets",
  "GET /endpoints/[id]/stats": "scoped",
  "POST /endpoints/[id]/recover": "recover",

  "GET /event-types": "scoped",
  "POST /event-types": "forbidden",

  "GET /messages": "scoped",
  "POST /messages": "forbidden",
  "GET /messages/[id]": "scoped",
  "GET /messages/[id]/attempts": "scoped",
  "POST /messages/[id]/resend": "resend",
  "GET /attempts": "scoped",

  "GET /recoveries": "scoped",
  "GET /recoveries/[id]": "scoped",
  "GET /recoveries/[id]/items": "scoped",
  "POST /recoveries/[id]/pause": "recover",
  "POST /recoveries/[id]/resume": "recover",
  "POST /recoveries/[id]/cancel": "recover",
  "POST /recoveries/[id]/retry-failed": "recover",

  "GET /stats": "scoped",

  "DELETE /portal/session": "scoped",

  "GET /api-keys": "forbidden",
  "POST /api-keys": "forbidden",
  "DELETE /api-keys/[id]": "forbidden",
  "GET /operators": "forbidden",
  "POST /operators": "forbidden",
  "DELETE /operators/[id]": "forbidden",
  "GET /alert-channels": "forbidden",
  "POST /alert-channels": "forbidden",
  "GET /alert-channels/[id]": "forbidden",
  "PATCH /alert-channels/[id]": "forbidden",
  "DELETE /alert-channels/[id]": "forbidden",
  "POST /alert-channels/[id]/test": "forbidden",
  "GET /alerts": "forbidden",
  "GET /audit-events": "forbidden",
};

type Compiled = { method: string; pattern: RegExp; rule: PortalRule };

const compiled: Compiled[] = Object.entries(PORTAL_POLICY).map(([key, rule]) => {
  const [method, route] = key.split(" ") as [string, string];
  const source = route
    .split("/")
    .map((segment) => (segment.startsWith("[") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return { method, pattern: new RegExp(`^/api/v1${source}/?$`), rule };
});

/** The rule for a request, or "forbidden" for any path or method the table does not name. */
export function portalRule(method: string, pathname: string): PortalRule {
  const wanted = method === "HEAD" ? "GET" : method;
  return compiled.find((c) => c.method === wanted && c.pattern.test(pathname))?.rule ?? "forbidden";
}

export function requirePortalAccess(actor: PortalActor, method: string, pathname: string): void {
  const rule = portalRule(method, pathname);
  if (rule === "scoped") return;
  if (rule === "forbidden") throw new ForbiddenError("A portal session cannot use this route.");
  if (!actor.capabilities.includes(rule)) throw new ForbiddenError(`This portal session lacks the \`${rule}\` capability.`);
}
