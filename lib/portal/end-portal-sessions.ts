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

/** Ends every portal session of a consumer, e.g. when the customer's access is withdrawn. */
export async function endConsumerPortalSessions({ ctx, ref }: { ctx: Ctx; ref: string }): Promise<void> {
  const consumer = await findConsumer(ctx, ref);
  await inTransaction(ctx, async (tx) => {
    const ended = await tx.db.delete(portalSessions).where(eq(portalSessions.consumerId, consumer.id)).returning({ id: portalSessions.id });
    await recordAuditEvent(tx, {
      actor: ctx.actor,
      action: "portal_sessions.ended",
      targetType: "consumer",
      targetId: consumer.id,
      data: { sessions: ended.length },
    });
  });
}
