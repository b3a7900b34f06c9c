import { MethodNotAllowedError } from "../errors";
import { portalPreflight, type PreflightAllowed } from "../portal/cors";
import { errorResponse } from "./problem";
import { served } from "./served";

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Next passes each route its own context type
type RouteHandler = (req: Request, context: any) => Response | Promise<Response>;

const generated = new WeakSet<RouteHandler>();

/** Whether a route's export is one of these stand-ins rather than a method the route implements. */
export function isOtherMethod(handler: unknown): boolean {
  return typeof handler === "function" && generated.has(handler as RouteHandler);
}

/** Next.js answers HEAD from GET itself. */
type Derived<T> = "GET" extends keyof T ? "HEAD" : never;

/**
 * The methods a route file does not implement: a problem+json 405 with `Allow` (Next.js alone
 * answers a bare 405), and OPTIONS naming what the route does implement. Each route file ends with
 * `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });`
 * and tests/api/routes.test.ts fails for a route that leaves a method out.
 */
export function otherMethods<T extends Partial<Record<HttpMethod, RouteHandler>>>(
  implemented: T,
  /** Another surface's error shape and CORS preflight (the Svix API's, lib/svix/route.ts). */
  options: {
    errors?: (error: unknown) => Response | Promise<Response>;
    preflight?: PreflightAllowed;
    /** An error to answer instead of the 405 for some requests (the Svix API's 501 for an operation its document has and this server does not serve). */
    instead?: (req: Request) => Error | undefined;
  } = {},
): Omit<Record<HttpMethod, RouteHandler>, keyof T | Derived<T>> {
  const render = options.errors ?? errorResponse;
  const has = (method: HttpMethod) => method in implemented || (method === "HEAD" && "GET" in implemented) || method === "OPTIONS";
  const allow = HTTP_METHODS.filter(has).join(", ");
  const handlers: Partial<Record<HttpMethod, RouteHandler>> = {
    // A CORS preflight from one of PORTAL_CORS_ORIGINS is answered here, not in proxy.ts: a proxy
    // matching /api would make Next.js buffer every request body before the route could refuse it.
    OPTIONS: served((req: Request) => portalPreflight(req, options.preflight) ?? new Response(null, { status: 204, headers: { allow } })),
  };
  for (const method of HTTP_METHODS) {
    if (!has(method)) handlers[method] = served((req: Request) => render(options.instead?.(req) ?? new MethodNotAllowedError(req.method, allow)));
  }
  for (const handler of Object.values(handlers)) generated.add(handler);
  return handlers as Omit<Record<HttpMethod, RouteHandler>, keyof T | Derived<T>>;
}
