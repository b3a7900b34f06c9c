import NextAuth from "next-auth";
import { NextResponse } from "next/server";
import { baseAuthConfig } from "@/lib/auth/config";

// The session check only (no database): pages without a valid session cookie go to /login.
// The dashboard layout then checks the operator still exists, and lib/ enforces the role.
const { auth } = NextAuth(() => baseAuthConfig());

// With a lazily read config, Auth.js hands the wrapped handler back in a promise.
const gate = auth((req) => {
  if (req.auth) return NextResponse.next();
  const login = new URL("/login", req.nextUrl.origin);
  const back = `${req.nextUrl.pathname}${req.nextUrl.search}`;
  if (back !== "/") login.searchParams.set("callbackUrl", back);
  return NextResponse.redirect(login);
});

export default async function proxy(...args: Parameters<Awaited<typeof gate>>) {
  return (await gate)(...args);
}

export const config = {
  // Not the REST API (its own credentials), Auth.js's routes, the sign-in page, the portal, or static files.
  matcher: ["/((?!api/|login|portal|_next/static|_next/image|favicon\\.ico|robots\\.txt).*)"],
};
