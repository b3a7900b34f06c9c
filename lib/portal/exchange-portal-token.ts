import { sha256Hex } from "../crypto/encryption";
import { inTransaction, type Ctx } from "../context";
import type { PortalPermission, PortalTheme } from "../db/schema/access";
import { AppError, RateLimitedError } from "../errors";
import { authFailures, failureBucket } from "../request-limits/auth-failures";
import type { PortalSessionAnswer } from "./schemas";
import { startPortalSession } from "./start-portal-session";

export class InvalidPortalTokenError extends AppError {
  constructor() {
    super(401, "invalid_token", "Invalid token", "The portal link is unknown, already used or expired; ask for a new one.");
  }
}

/**
 * Trades a link's token for a session, once, for `client` (clientAddress): the one unauthenticated
 * way to make a session, so it is under the failed-authentication limit API keys are under (the
 * same bucket: the client's, or this token's own where the client is unknown, so another's bad
 * tokens never refuse a valid link), checked before any database work; every invalid token counts. The
 * token is spent by one conditional UPDATE, so of two exchanges racing on the same token exactly
 * one gets a row back; the session is made in the same transaction, so a spent token always has
 * its session.
 */
export async function exchangePortalToken({ ctx, input: { token, client } }: { ctx: Ctx; input: { token: string; client: string } }): Promise<PortalSessionAnswer> {
  const failures = authFailures(ctx.config);
  const tokenHash = sha256Hex(token);
  const bucket = failureBucket(client, tokenHash);
  // No token hash: a one-time token never passes as "authenticated here before".
  const wait = failures.retryAfter(bucket);
  if (wait > 0) throw new RateLimitedError(wait);
  try {
    return await spend(ctx, token, tokenHash);
  } catch (error) {
    if (error instanceof InvalidPortalTokenError) failures.failed(bucket);
    throw error;
  }
}

async function spend(ctx: Ctx, token: string, tokenHash: string): Promise<PortalSessionAnswer> {
  if (!token.startsWith("pt_") || token.length > 200) throw new InvalidPortalTokenError();
  return inTransaction(ctx, async (tx) => {
    const [link] = await tx.sql<
      { consumer_id: string; capabilities: PortalPermission[]; locale: string | null; theme: PortalTheme; session_ttl_seconds: number; svix: boolean; svix_session_id: string | null }[]
    >`
      update portal_tokens set used_at = now()
      where token_hash = ${tokenHash} and used_at is null and expires_at > now()
      returning consumer_id, capabilities, locale, theme, session_ttl_seconds, svix, svix_session_id`;
    if (!link) throw new InvalidPortalTokenError();
    return startPortalSession({
      ctx: tx,
      session: {
        consumerId: link.consumer_id,
        capabilities: link.capabilities,
        locale: link.locale,
        theme: link.theme,
        ttlSeconds: link.session_ttl_seconds,
        ...(link.svix ? { svix: { kind: "link" as const, sessionId: link.svix_session_id } } : {}),
      },
      by: "itself",
    });
  });
}
