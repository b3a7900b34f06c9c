import { NextResponse, type NextRequest } from "next/server";
import { sessionOperatorId } from "@/lib/auth/request-session";

/**
 * Pages without a valid session cookie go to /login. Only the cookie is checked here (no
 * database): the dashboard layout checks that the operator still exists, and lib/ enforces the
 * role. Unlike Auth.js's own wrapper this never re-issues the cookie — a page request in flight
 * while someone signs out would otherwise set it again — so a session ends OPERATOR_SESSION_TTL
 * after sign-in.
 */
export default async function proxy(req: NextRequest) {
  if (await sessionOperatorId(req)) return NextResponse.next();
  const login = new URL("/login", req.nextUrl.origin);
  const back = `${req.nextUrl.pathname}${req.nextUrl.search}`;
  if (back !== "/") login.searchParams.set("callbackUrl", back);
  return NextResponse.redirect(login);
}

export const config = {
  // Not the REST API (its own credentials), Auth.js's routes, the sign-in page, the portal, or static files.
  matcher: ["/((?!api/|login|portal|_next/static|_next/image|favicon\\.ico|icon\\.svg|robots\\.txt).*)"],
};
