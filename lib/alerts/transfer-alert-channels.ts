import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { recordAuditEvent } from "../audit/record-audit-event";
import type { Ctx } from "../context";
import { alertChannels } from "../db/schema";
import { openChannelConfig } from "./channel-config";
import { createAlertChannel } from "./create-alert-channel";
import { ALERT_CHANNEL_KINDS } from "./kinds";
import { CreateAlertChannelInput } from "./schemas";
import { updateAlertChannel } from "./update-alert-channel";

/**
 * Alert channels moved between deployments whole, credentials included (the Svix API's environment
 * export and import): what POST /alert-channels takes, so a deployment's channels are made again
 * on another exactly. Exporting reveals every channel's credentials, so it is audited.
 */
export const AlertChannelTransfer = z.object({
  kind: z.enum(ALERT_CHANNEL_KINDS),
  name: z.string(),
  kinds: z.array(z.string()).nullable(),
  config: z.record(z.string(), z.unknown()),
});
export type AlertChannelTransfer = z.infer<typeof AlertChannelTransfer>;

/** Every channel, oldest first, its config decrypted. */
export async function exportAlertChannels({ ctx }: { ctx: Ctx }): Promise<AlertChannelTransfer[]> {
  const rows = await ctx.db.select().from(alertChannels).orderBy(asc(alertChannels.createdAt), asc(alertChannels.id));
  await recordAuditEvent(ctx, { action: "alert_channels.exported", targetType: "alert_channel", targetId: "*", data: { channels: rows.length } });
  return rows.map((row) => ({ kind: row.kind, name: row.name, kinds: row.kinds, config: openChannelConfig(row.configCiphertext, ctx.config) }));
}

/**
 * The channel made, or — when one of its kind and name exists — that one's config and kinds
 * replaced (a webhook channel's secret too, when the import has one). Nothing is deleted; the
 * caller's transaction holds a whole import.
 */
export async function importAlertChannel({ ctx, channel }: { ctx: Ctx; channel: CreateAlertChannelInput }): Promise<"created" | "updated"> {
  const [existing] = await ctx.db
    .select({ id: alertChannels.id })
    .from(alertChannels)
    .where(and(eq(alertChannels.kind, channel.kind), eq(alertChannels.name, channel.name)))
    .orderBy(asc(alertChannels.id))
    .limit(1);
  if (!existing) {
    await createAlertChannel({ ctx, input: channel });
    return "created";
  }
  await updateAlertChannel({ ctx, id: existing.id, input: { config: channel.config, kinds: channel.kinds ?? null } });
  return "updated";
}
