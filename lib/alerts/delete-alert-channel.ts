import { eq } from "drizzle-orm";
import { insertAuditEvent } from "../audit/insert-audit-event";
import type { Ctx } from "../context";
import { alertChannels, alertWindows } from "../db/schema";
import { findAlertChannelRow } from "./queries";

/** Deletes the channel and its throttle rows; its alert log stays. Queued sends to it end `failed`. */
export async function deleteAlertChannel({ ctx, id }: { ctx: Ctx; id: string }) {
  const row = await findAlertChannelRow(ctx, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(alertWindows).where(eq(alertWindows.target, id));
    await tx.delete(alertChannels).where(eq(alertChannels.id, id));
    await insertAuditEvent(tx, { actor: ctx.actor, action: "alert_channel.deleted", targetType: "alert_channel", targetId: id, data: { kind: row.kind, name: row.name } });
  });
}
