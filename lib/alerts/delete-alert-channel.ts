import { eq } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { alertChannels, alertWindows } from "../db/schema";
import { findAlertChannelRow } from "./queries";

/** Deletes the channel and its throttle rows; its alert log stays. Queued sends to it end `failed`. */
export async function deleteAlertChannel({ ctx, id }: { ctx: Ctx; id: string }) {
  const row = await findAlertChannelRow(ctx, id);
  await inTransaction(ctx, async (tx) => {
    await tx.db.delete(alertWindows).where(eq(alertWindows.target, id));
    await tx.db.delete(alertChannels).where(eq(alertChannels.id, id));
    await recordAuditEvent(tx, { action: "alert_channel.deleted", targetType: "alert_channel", targetId: id, data: { kind: row.kind, name: row.name } });
  });
}
