import { getConfig } from "../config";

/**
 * CORS for headless portals: a page on one of PORTAL_CORS_ORIGINS may call the API with a portal
 * session (ps_ bearer), never with an API key or a cookie, so no credentials mode and never `*`.
 */
export function portalCorsHeaders(req: Request): Record<string, string> {
  const origin = req.headers.get("origin");
  if (!origin || !getConfig().PORTAL_CORS_ORIGINS.includes(origin)) return {};
  return { "access-control-allow-origin": origin, "access-control-expose-headers": "x-request-id, retry-after", vary: "Origin" };
}

/** What a preflight allows: our API's methods and headers, or the Svix SDK's (lib/svix/route.ts). */
export type PreflightAllowed = { methods: string; headers: string };
const OUR_API: PreflightAllowed = { methods: "GET, POST, PATCH, DELETE", headers: "authorization, content-type" };

/** The answer to a preflight from a listed origin; null lets the request go on unanswered by CORS. */
export function portalPreflight(req: Request, allowed: PreflightAllowed = OUR_API): Response | null {
  const headers = portalCorsHeaders(req);
  if (!headers["access-control-allow-origin"] || !req.headers.get("access-control-request-method")) return null;
  return new Response(null, {
    status: 204,
    headers: {
      ...headers,
      "access-control-allow-methods": allowed.methods,
      "access-control-allow-headers": allowed.headers,
      "access-control-max-age": "600",
    },
  });
}

export function withCors(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
