import type { Operation } from "../openapi/operation";
import type { PortalPermission } from "../portal/capabilities";

/** The route's OpenAPI operation: its method and path come from where it is exported (app/api/v1/routes.ts). */
export type RouteDoc = Omit<Operation, "method" | "path">;

/**
 * Who may call a route, declared where it is exported:
 * - `portal`: a customer's portal session may not (false), may within its consumer ("scoped": lib/
 *   limits every query to it, another consumer's object is a 404), or may with that capability.
 * - `role`: the operator role a dashboard session needs. "read": any operator; "write": a change,
 *   which a viewer may not make; "admin": only an admin, even to read (secrets, the people who
 *   run the product); "own": the signed-in operator's own account (their sessions, their second
 *   factor), any role, changes included, and only with a dashboard session.
 * - `apiKey`: false where not even an API key may (operators' sessions); otherwise API keys may
 *   call every route but the "own" ones.
 */
export type RouteAccess = {
  portal: false | "scoped" | PortalPermission;
  role: "read" | "write" | "admin" | "own";
  apiKey?: false;
};
/** `surface`: "svix" for a route of the Svix-compatible API (lib/svix/route.ts), the one surface a Svix app-portal token may use. */
export type RouteContract = (RouteAccess & { doc: RouteDoc | null; surface?: "svix" }) | { public: true; doc: RouteDoc };

const contracts = new WeakMap<object, RouteContract>();

/** The contract a route's exported handler was declared with, or undefined for a 405 stand-in. */
export function routeContract(handler: unknown): RouteContract | undefined {
  return typeof handler === "function" ? contracts.get(handler) : undefined;
}

/** Keeps a route handler's contract where the manifest's readers (the OpenAPI document, the route tests) find it. */
export function declareRoute<H extends object>(handler: H, contract: RouteContract): H {
  contracts.set(handler, contract);
  return handler;
}
