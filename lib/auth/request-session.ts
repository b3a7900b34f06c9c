import type { Ctx } from "../context";
import { getToken } from "next-auth/jwt";
import { getConfig } from "../config";
import type { Actor } from "../context";
import { ForbiddenError } from "../errors";
import { findOperator } from "../operators";
import { authSecret, secureCookies, sessionCookieName } from "./settings";

/** Whether the request carries a dashboard session cookie (Auth.js may split it into `.0`, `.1`…). */
export function hasSessionCookie(req: Request): boolean {
  const name = sessionCookieName();
  return (req.headers.get("cookie") ?? "").split(";").some((part) => part.trim().startsWith(name));
}

/** The operator id a valid, unexpired session cookie names, or null; no database involved. */
export async function sessionOperatorId(req: Request): Promise<string | null> {
  // Only the cookie: getToken would otherwise also read an Authorization header.
  const token = await getToken({
    req: { headers: { cookie: req.headers.get("cookie") ?? "" } },
    secret: authSecret(),
    secureCookie: secureCookies(),
  });
  return token?.sub ?? null;
}

/**
 * The operator a session cookie names, read fresh from the database — so a removed operator is
 * signed out and a changed role applies on the next request — or null when there is none.
 */
export async function operatorFromSession(req: Request, ctx: Ctx): Promise<Extract<Actor, { type: "operator" }> | null> {
  const id = await sessionOperatorId(req);
  if (!id) return null;
  const operator = await findOperator(ctx, id);
  return operator ? { type: "operator", id: operator.id, role: operator.role } : null;
}

/**
 * A cookie rides along with any request the browser makes, whoever's page made it: a change made
 * with one must come from our own pages. Browsers send Origin on every non-GET fetch and form post.
 */
export function assertSameOrigin(req: Request, appUrl = getConfig().APP_URL): void {
  const origin = req.headers.get("origin");
  if (origin === null || origin !== new URL(appUrl).origin) {
    throw new ForbiddenError(
      "A change made with a dashboard session must come from the dashboard's own origin (APP_URL).",
      "origin_mismatch",
    );
  }
}
