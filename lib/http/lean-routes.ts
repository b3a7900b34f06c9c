import type { RouteHandler } from "./api-route";

/**
 * The hottest routes, served without Next.js's routing in front of them (ADR 0035): a route module
 * hands its own exported handler — the withApi-wrapped function Next.js calls, so one
 * authorization path, one verb, one set of errors, request ids, access lines, metrics and rate
 * limits — to the web server (web/server.ts), which calls it directly for `METHOD path`
 * once the module has been loaded (Next.js loads it on the route's first request). Kept on
 * globalThis: the server and Next.js's bundles are separate module graphs in one process.
 */
const KEY = Symbol.for("webhook-admin.lean-routes");
type Registry = Map<string, RouteHandler>;

function registry(): Registry {
  const state = globalThis as unknown as Record<symbol, Registry | undefined>;
  return (state[KEY] ??= new Map());
}

/** Offers `handler` (the route's own export) for `METHOD /exact/path`, a path without parameters. */
export function offerLeanRoute(method: string, path: string, handler: RouteHandler): void {
  registry().set(`${method} ${path}`, handler);
}

/** The handler offered for this method and exact path, or undefined: Next.js serves it then. */
export function leanRoute(method: string, path: string): RouteHandler | undefined {
  return registry().get(`${method} ${path}`);
}
