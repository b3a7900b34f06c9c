import { randomBytes } from "node:crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import { sha256Hex } from "../crypto/encryption";
import { getSql } from "../db/client";
import type { PortalCapability, PortalTheme } from "../db/schema/access";
import { AppError, RateLimitedError } from "../errors";
import { authFailures } from "../http/auth-failures";
import { newId } from "../ids";
import type { PortalSessionAnswer } from "./schemas";

export class InvalidPortalTokenError extends AppError {
  constructor() {
    super(401, "invalid_token", "Invalid token", "The portal link is unknown, already used or expired; ask for a new one.");
  }
}

/**
 * Trades a link's token for a session, once, for `client` (clientAddress): the one unauthenticated
 * way to make a session, so it is under the failed-authentication limit API keys are under (the
 * same bucket per client), checked before any database work; every invalid token counts. The
 * token is spent by one conditional UPDATE, so of two exchanges racing on the same token exactly
 * one gets a row back; the session is made in the same transaction, so a spent token always has
 * its session.
 */
export async function exchangePortalToken(token: string, client: string): Promise<PortalSessionAnswer> {
  const failures = authFailures();
  const wait = failures.clientRetryAfter(client);
  if (wait > 0) throw new RateLimitedError(wait);
  try {
    return await spend(token);
  } catch (error) {
    if (error instanceof InvalidPortalTokenError) failures.failed(client);
    throw error;
  }
}

async function spend(token: string): Promise<PortalSessionAnswer> {
  if (!token.startsWith("pt_") || token.length > 200) throw new InvalidPortalTokenError();
  const sql = getSql();
  return sql.begin(async (tx) => {
    const [link] = await tx<{ consumer_id: string; capabilities: PortalCapability[]; locale: string | null; theme: PortalTheme; session_ttl_seconds: number }[]>`
      update portal_tokens set used_at = now()
      where token_hash = ${sha256Hex(token)} and used_at is null and expires_at > now()
      returning consumer_id, capabilities, locale, theme, session_ttl_seconds`;
    if (!link) throw new InvalidPortalTokenError();
    const sessionToken = `ps_${randomBytes(32).toString("base64url")}`;
    const id = newId("portalSession");
    const [session] = await tx<{ expires_at: Date }[]>`
      insert into portal_sessions (id, consumer_id, token_hash, capabilities, locale, theme, expires_at)
      values (${id}, ${link.consumer_id}, ${sha256Hex(sessionToken)}, ${link.capabilities}, ${link.locale}, ${tx.json(link.theme as never)},
              now() + make_interval(secs => ${link.session_ttl_seconds}))
      returning expires_at`;
    await recordAuditEvent(tx, {
      actor: { type: "portal", id, consumerId: link.consumer_id, capabilities: link.capabilities },
      action: "portal_session.started",
      targetType: "portal_session",
      targetId: id,
      data: { capabilities: link.capabilities },
    });
    return {
      session_token: sessionToken,
      consumer_id: link.consumer_id,
      capabilities: link.capabilities,
      locale: link.locale,
      theme: link.theme,
      expires_at: new Date(session!.expires_at).toISOString(),
    };
  });
}
