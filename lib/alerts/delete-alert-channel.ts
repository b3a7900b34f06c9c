import { eq } from "drizzle-orm";
import type { Ctx } from "../context";
import { alertChannels, alertWindows } from "../db/schema";
import { findAlertChannelRow } from "./queries";

/** Deletes the channel and its throttle rows; its alert log stays. Queued sends to it end `failed`. */
export async function deleteAlertChannel({ ctx, id }: { ctx: Ctx; id: string }) {
  await findAlertChannelRow(ctx, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(alertWindows).where(eq(alertWindows.target, id));
    await tx.delete(alertChannels).where(eq(alertChannels.id, id));
  });
}
