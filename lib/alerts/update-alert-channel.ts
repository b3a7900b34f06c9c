import { eq } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { alertChannels } from "../db/schema";
import { NotFoundError } from "../errors";
import { checkChannelConfig, maskChannelConfig, openChannelConfig, sealChannelConfig } from "./channel-config";
import { findAlertChannelRow } from "./queries";
import { toAlertChannel, type UpdateAlertChannelInput } from "./schemas";

/** PATCH: the given config fields replace the stored ones, the rest (credentials) are kept. */
export async function updateAlertChannel({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdateAlertChannelInput }) {
  const row = await findAlertChannelRow(ctx, id);
  const config = input.config ? checkChannelConfig(row.kind, { ...openChannelConfig(row.configCiphertext, ctx.config), ...input.config }, ctx.config) : null;
  const updated = await inTransaction(ctx, async (tx) => {
    const [changed] = await tx.db
      .update(alertChannels)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.kinds !== undefined ? { kinds: input.kinds?.length ? [...new Set(input.kinds)] : null } : {}),
        ...(config ? { ...sealChannelConfig(config, ctx.config), configMasked: maskChannelConfig(row.kind, config) } : {}),
        updatedAt: new Date(),
      })
      .where(eq(alertChannels.id, id))
      .returning();
    if (!changed) throw new NotFoundError("alert channel", id);
    // Which fields changed, never their values: a config field is a credential or an address.
    // Its names are the kind's own (the config schema is strict), not the caller's free text.
    const fields = [...Object.keys(input).filter((key) => key !== "config"), ...Object.keys(input.config ?? {}).map((key) => `config.${key}`)];
    await recordAuditEvent(tx, { action: "alert_channel.updated", targetType: "alert_channel", targetId: id, data: { fields } });
    return changed;
  });
  return toAlertChannel(updated);
}
