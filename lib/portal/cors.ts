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

/** The answer to a preflight from a listed origin; null lets the request go on unanswered by CORS. */
export function portalPreflight(req: Request): Response | null {
  const headers = portalCorsHeaders(req);
  if (!headers["access-control-allow-origin"] || !req.headers.get("access-control-request-method")) return null;
  return new Response(null, {
    status: 204,
    headers: {
      ...headers,
      "access-control-allow-methods": "GET, POST, PATCH, DELETE",
      "access-control-allow-headers": "authorization, content-type",
      "access-control-max-age": "600",
    },
  });
}

export function withCors(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
