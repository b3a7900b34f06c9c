import { eq } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record-audit-event";
import { UnauthorizedError } from "../errors";
import { inTransaction, type Ctx } from "../context";
import { portalSessions } from "../db/schema";
import { findConsumer } from "../consumers/queries";

/** Ends the calling portal session (the portal's "sign out"). */
export async function endPortalSession({ ctx }: { ctx: Ctx }): Promise<void> {
  const { actor } = ctx;
  if (actor.type !== "portal") throw new UnauthorizedError("Only a portal session can end itself: send its ps_ token.");
  await inTransaction(ctx, async (tx) => {
    await tx.db.delete(portalSessions).where(eq(portalSessions.id, actor.id));
    await recordAuditEvent(tx, { actor, action: "portal_session.ended", targetType: "portal_session", targetId: actor.id });
  });
}

/**
 * Ends every portal session of a consumer, e.g. when the customer's access is withdrawn, and its
 * links not yet used, which would open new ones: the Svix API's tokens and links among them. For
 * Svix's expire-all, only those made with one of `svixSessionIds`, and in `inSeconds` (0: now).
 */
export async function endConsumerPortalSessions({
  ctx,
  ref,
  svixSessionIds,
  inSeconds = 0,
}: {
  ctx: Ctx;
  ref: string;
  svixSessionIds?: readonly string[];
  inSeconds?: number;
}): Promise<void> {
  const consumer = await findConsumer(ctx, ref);
  await inTransaction(ctx, async (tx) => {
    const { sql } = tx;
    const only = svixSessionIds ? sql`and svix_session_id = any(${svixSessionIds as string[]})` : sql``;
    const ended =
      inSeconds === 0
        ? await sql`delete from portal_sessions where consumer_id = ${consumer.id} ${only} returning id`
        : await sql`
            update portal_sessions set expires_at = least(expires_at, now() + make_interval(secs => ${inSeconds}))
            where consumer_id = ${consumer.id} and expires_at > now() ${only} returning id`;
    const links = await sql`
      update portal_tokens set expires_at = least(expires_at, now() + make_interval(secs => ${inSeconds}))
      where consumer_id = ${consumer.id} and used_at is null and expires_at > now() ${only} returning id`;
    await recordAuditEvent(tx, {
      actor: ctx.actor,
      action: "portal_sessions.ended",
      targetType: "consumer",
      targetId: consumer.id,
      data: { sessions: ended.length, links: links.length, ...(svixSessionIds ? { svix_session_ids: svixSessionIds } : {}), ...(inSeconds ? { in_seconds: inSeconds } : {}) },
    });
  });
}
