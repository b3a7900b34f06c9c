import { randomBytes } from "node:crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { sha256Hex } from "../crypto/encryption";
import type { PortalPermission, PortalSessionSvix, PortalTheme } from "../db/schema/access";
import { newId } from "../ids";
import { sessionPermissions } from "./capabilities";
import type { PortalSessionAnswer } from "./schemas";

export type NewPortalSession = {
  consumerId: string;
  capabilities: PortalPermission[];
  locale: string | null;
  theme: PortalTheme;
  ttlSeconds: number;
  /** Made by the Svix API (lib/svix/portal-access.ts): its bearer token, or a session its link opened; and Svix's `sessionId`. */
  svix?: { kind: PortalSessionSvix; sessionId: string | null };
};

/**
 * A portal session (`ps_…` bearer) for a consumer: what a link's one-time token is exchanged for
 * (exchange-portal-token.ts), or made at once for the Svix API's app-portal token. Only its SHA-256
 * is stored. The session starts itself when a link's token was spent (`by: "itself"`); else the
 * caller (an API key) is the one who started it, in the audit log.
 */
export async function startPortalSession({
  ctx,
  session,
  by = "caller",
}: {
  ctx: Ctx;
  session: NewPortalSession;
  by?: "itself" | "caller";
}): Promise<PortalSessionAnswer> {
  return inTransaction(ctx, async ({ sql: tx, actor }) => {
    const sessionToken = `ps_${randomBytes(32).toString("base64url")}`;
    const id = newId("portalSession");
    const [row] = await tx<{ expires_at: Date }[]>`
      insert into portal_sessions (id, consumer_id, token_hash, capabilities, locale, theme, svix, svix_session_id, expires_at)
      values (${id}, ${session.consumerId}, ${sha256Hex(sessionToken)}, ${session.capabilities}, ${session.locale}, ${tx.json(session.theme as never)},
              ${session.svix?.kind ?? null}, ${session.svix?.sessionId ?? null}, now() + make_interval(secs => ${session.ttlSeconds}))
      returning expires_at`;
    const started = by === "itself" ? ({ type: "portal", id, consumerId: session.consumerId, capabilities: session.capabilities } as const) : actor;
    await recordAuditEvent({ sql: tx, actor: started }, {
      action: "portal_session.started",
      targetType: "portal_session",
      targetId: id,
      data: { capabilities: session.capabilities, ...(by === "caller" ? { consumer_id: session.consumerId } : {}) },
    });
    return {
      session_token: sessionToken,
      consumer_id: session.consumerId,
      capabilities: session.capabilities,
      may_rotate_secrets: sessionPermissions(session.capabilities, session.svix !== undefined).includes("rotate_secrets"),
      locale: session.locale,
      theme: session.theme,
      expires_at: new Date(row!.expires_at).toISOString(),
    };
  });
}
