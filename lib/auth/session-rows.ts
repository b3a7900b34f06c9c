import type { NextAuthConfig } from "next-auth";
import { headers } from "next/headers";
import { getConfig } from "../config";
import { endSignedOutSession, startSession } from "../operator-sessions";
import { SHARED_CLIENT, clientAddress } from "../request-limits/client-address";
import { systemCtx } from "../open-ctx";

declare module "next-auth" {
  interface Session {
    /** The operator_sessions row this cookie belongs to (lib/operator-sessions). */
    sessionId?: string;
  }
}
declare module "@auth/core/jwt" {
  interface JWT {
    sid?: string;
  }
}

/**
 * Who signed in from where: Auth.js's own route hands its request to the config (`request`); a
 * server action's signIn() does not, and its request's headers are Next's.
 */
async function signInClient(request: Request | undefined): Promise<{ userAgent: string | null; address: string | null }> {
  const incoming = request?.headers ?? (await headers());
  const address = clientAddress(new Request("http://sign-in.invalid/", { headers: incoming }), getConfig().TRUST_PROXY);
  return { userAgent: incoming.get("user-agent"), address: address === SHARED_CLIENT ? null : address };
}

/**
 * Every session Auth.js issues gets a row (ADR 0047): made when the JWT is, on sign-in (`user` is
 * set only then), its id kept in the token as `sid` and shown to the pages as `sessionId`; signing
 * out ends it. request-session.ts refuses a JWT whose row is missing or ended.
 */
export const sessionRowCallbacks = (request: Request | undefined) =>
  ({
    callbacks: {
      async jwt({ token, user }) {
        if (user?.id) {
          token.sub = user.id;
          token.sid = await startSession({ ctx: systemCtx(), input: { operatorId: user.id, ...(await signInClient(request)) } });
        }
        return token;
      },
      session({ session, token }) {
        if (token.sub) session.user = { ...session.user, id: token.sub };
        if (token.sid) session.sessionId = token.sid;
        return session;
      },
    },
    events: {
      async signOut(message) {
        const sid = "token" in message ? message.token?.sid : undefined;
        if (sid) await endSignedOutSession(systemCtx(), sid);
      },
    },
  }) satisfies Pick<NextAuthConfig, "callbacks" | "events">;
