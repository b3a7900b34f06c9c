import { NextResponse, type NextRequest } from "next/server";
import { sessionOperatorId } from "@/lib/auth/request-session";
import { portalPreflight } from "@/lib/portal/cors";

/**
 * Pages without a valid session cookie go to /login. Only the cookie is checked here (no
 * database): the dashboard layout checks that the operator still exists, and lib/ enforces the
 * role. Unlike Auth.js's own wrapper this never re-issues the cookie — a page request in flight
 * while someone signs out would otherwise set it again — so a session ends OPERATOR_SESSION_TTL
 * after sign-in.
 */
export default async function proxy(req: NextRequest) {
  // The REST API has its own credentials; here it only gets CORS preflights for PORTAL_CORS_ORIGINS.
  if (req.nextUrl.pathname.startsWith("/api/")) return (req.method === "OPTIONS" && portalPreflight(req)) || NextResponse.next();
  if (await sessionOperatorId(req)) return NextResponse.next();
  const login = new URL("/login", req.nextUrl.origin);
  const back = `${req.nextUrl.pathname}${req.nextUrl.search}`;
  if (back !== "/") login.searchParams.set("callbackUrl", back);
  return NextResponse.redirect(login);
}

export const config = {
  // Not the REST API (its own credentials), Auth.js's routes, the sign-in page, the portal, or static files;
  // the REST API only for its CORS preflights.
  matcher: ["/((?!api/|login|portal|_next/static|_next/image|favicon\\.ico|icon\\.svg|robots\\.txt).*)", "/api/v1/:path*"],
};
