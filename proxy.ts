import { NextResponse, type NextRequest } from "next/server";
import { sessionOperatorId } from "@/lib/auth/request-session";
import { getConfig } from "@/lib/config";
import { frameAncestorsHeader } from "@/lib/portal-page/frame-ancestors";

/**
 * The portal is meant to be framed by the SaaS's own pages, so its framing policy comes from the
 * runtime config (next.config.ts's headers are fixed at build time and keep every other page
 * unframeable). No X-Frame-Options: it cannot name an origin and would override the CSP in old browsers.
 */
function portal(): NextResponse {
  const response = NextResponse.next();
  response.headers.set("Content-Security-Policy", frameAncestorsHeader(getConfig().PORTAL_FRAME_ANCESTORS));
  response.headers.set("Referrer-Policy", "same-origin");
  response.headers.set("X-Content-Type-Options", "nosniff");
  return response;
}

/**
 * Pages without a valid session cookie go to /login. Only the cookie is checked here (no
 * database): the dashboard layout checks that the operator still exists, and lib/ enforces the
 * role. Unlike Auth.js's own wrapper this never re-issues the cookie — a page request in flight
 * while someone signs out would otherwise set it again — so a session ends OPERATOR_SESSION_TTL
 * after sign-in. The portal has no cookie: its pages are public shells that work from a link's token.
 */
export default async function proxy(req: NextRequest) {
  const path = req.nextUrl.pathname;
  if (path === "/portal" || path.startsWith("/portal/")) return portal();
  if (await sessionOperatorId(req)) return NextResponse.next();
  const login = new URL("/login", req.nextUrl.origin);
  const back = `${path}${req.nextUrl.search}`;
  if (back !== "/") login.searchParams.set("callbackUrl", back);
  return NextResponse.redirect(login);
}

export const config = {
  // Not the REST API (its own credentials) nor Svix Ingest's base path (an API too: lib/svix/unserved.ts),
  // Auth.js's routes, the sign-in page, or static files.
  matcher: ["/((?!api/|ingest/api/|login|_next/static|_next/image|favicon\\.ico|icon\\.svg|robots\\.txt).*)"],
};
