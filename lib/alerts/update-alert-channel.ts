import { eq } from "drizzle-orm";
import type { Ctx } from "../context";
import { alertChannels } from "../db/schema";
import { checkChannelConfig, maskChannelConfig, openChannelConfig, sealChannelConfig } from "./channel-config";
import { findAlertChannelRow } from "./queries";
import { toAlertChannel, type UpdateAlertChannelInput } from "./schemas";

/** PATCH: the given config fields replace the stored ones, the rest (credentials) are kept. */
export async function updateAlertChannel({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdateAlertChannelInput }) {
  const row = await findAlertChannelRow(ctx, id);
  const config = input.config ? checkChannelConfig(row.kind, { ...openChannelConfig(row.configCiphertext), ...input.config }) : null;
  const [updated] = await ctx.db
    .update(alertChannels)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.kinds !== undefined ? { kinds: input.kinds?.length ? [...new Set(input.kinds)] : null } : {}),
      ...(config ? { ...sealChannelConfig(config), configMasked: maskChannelConfig(row.kind, config) } : {}),
      updatedAt: new Date(),
    })
    .where(eq(alertChannels.id, id))
    .returning();
  return toAlertChannel(updated!);
}
