import { encode } from "next-auth/jwt";
import { createOperator } from "../../lib/operators";
import { startSession } from "../../lib/operator-sessions";
import { call } from "./api";
import { systemCtx } from "../../lib/open-ctx";
import { APP_ORIGIN } from "./origin";

/**
 * A dashboard session cookie exactly as Auth.js issues it (the same encoder, secret and salt) with
 * its session row (lib/operator-sessions), so in-process route tests can act as an operator
 * without driving the sign-in form. `sessionId` names the row.
 */
export async function signedInSession(operatorId: string, options: { maxAgeSeconds?: number; userAgent?: string } = {}): Promise<{ cookie: string; sessionId: string }> {
  const name = "authjs.session-token";
  const sessionId = await startSession({ ctx: systemCtx(), input: { operatorId, userAgent: options.userAgent ?? null, address: null } });
  const token = await encode({ token: { sub: operatorId, sid: sessionId }, secret: process.env.AUTH_SECRET!, salt: name, maxAge: options.maxAgeSeconds ?? 3600 });
  return { cookie: `${name}=${token}`, sessionId };
}

export async function sessionCookie(operatorId: string, options: { maxAgeSeconds?: number } = {}): Promise<string> {
  return (await signedInSession(operatorId, options)).cookie;
}

let counter = 0;

/** A new operator of that role, with a client that calls the API with its session cookie. */
export async function operatorClient(role: "admin" | "viewer", options: { origin?: string | null } = {}) {
  const email = `${role}-${++counter}-${Date.now()}@example.com`;
  const operator = await createOperator({ ctx: systemCtx(), input: { email, password: "correct horse battery", role } });
  const { cookie, sessionId } = await signedInSession(operator.id);
  const origin = options.origin === undefined ? APP_ORIGIN : options.origin;
  const headers = (extra?: Record<string, string>) => ({ cookie, ...(origin ? { origin } : {}), ...extra });
  const as =
    (method: string) =>
    <T = any>(pathname: string, body?: unknown, extra?: Record<string, string>) =>
      call<T>(method, pathname, { body, headers: headers(extra) });
  return { operator, cookie, sessionId, get: as("GET"), post: as("POST"), put: as("PUT"), patch: as("PATCH"), del: as("DELETE") };
}
