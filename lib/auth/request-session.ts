import type { Ctx } from "../context";
import { getToken } from "next-auth/jwt";
import { getConfig } from "../config";
import type { Actor } from "../context";
import { ForbiddenError } from "../errors";
import { findOperator, type Operator } from "../operators";
import { sessionStanding } from "../operator-sessions";
import { authSecret, secureCookies, sessionCookieName } from "./settings";

/** Whether the request carries a dashboard session cookie (Auth.js may split it into `.0`, `.1`…). */
export function hasSessionCookie(req: Request): boolean {
  const name = sessionCookieName();
  return (req.headers.get("cookie") ?? "").split(";").some((part) => part.trim().startsWith(name));
}

/** The operator id and session row a valid, unexpired session cookie names, or null; no database involved. */
async function sessionToken(req: Request): Promise<{ operatorId: string; sessionId: string | undefined } | null> {
  // Only the cookie: getToken would otherwise also read an Authorization header.
  const token = await getToken({
    req: { headers: { cookie: req.headers.get("cookie") ?? "" } },
    secret: authSecret(),
    secureCookie: secureCookies(),
  });
  return token?.sub ? { operatorId: token.sub, sessionId: token.sid } : null;
}

/** The operator id a valid, unexpired session cookie names, or null; no database involved (the proxy's gate). */
export async function sessionOperatorId(req: Request): Promise<string | null> {
  return (await sessionToken(req))?.operatorId ?? null;
}

/**
 * The operator a session names, read fresh from the database with the session's row — so a removed
 * operator, a changed role and an ended session all apply on the next request — or null. A JWT
 * without a row (`sid`: issued before sessions had rows) is no session.
 */
export async function operatorSession(ctx: Ctx, token: { operatorId: string; sessionId: string | undefined }): Promise<(Operator & { sessionId: string; mustEnroll: boolean }) | null> {
  if (!token.sessionId) return null;
  const operator = await findOperator(ctx, token.operatorId);
  if (!operator) return null;
  const standing = await sessionStanding(ctx, { sessionId: token.sessionId, operatorId: operator.id });
  return standing.active ? { ...operator, sessionId: token.sessionId, mustEnroll: standing.mustEnroll } : null;
}

/** The acting operator of an API request made with a dashboard session cookie, or null (operatorSession). */
export async function operatorFromSession(req: Request, ctx: Ctx): Promise<Extract<Actor, { type: "operator" }> | null> {
  const token = await sessionToken(req);
  const operator = token ? await operatorSession(ctx, token) : null;
  return operator ? { type: "operator", id: operator.id, role: operator.role, sessionId: operator.sessionId, mustEnroll: operator.mustEnroll } : null;
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
