import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { alertChannels } from "../db/schema";
import { newId } from "../ids";
import { checkChannelConfig, maskChannelConfig, sealChannelConfig } from "./channel-config";
import { toAlertChannel, type CreateAlertChannelInput, type CreatedAlertChannel } from "./schemas";

/**
 * A new alert channel. Its config is checked (URLs under the SSRF rules) before anything is
 * written, stored encrypted, and shown masked; a webhook channel's signing secret — generated
 * unless given — is answered this once, like an API key.
 */
export async function createAlertChannel({ ctx, input }: { ctx: Ctx; input: CreateAlertChannelInput }): Promise<CreatedAlertChannel> {
  const config = checkChannelConfig(input.kind, input.config, ctx.config);
  const row = await inTransaction(ctx, async (tx) => {
    const [created] = await tx.db
      .insert(alertChannels)
      .values({
        id: newId("alertChannel"),
        kind: input.kind,
        name: input.name,
        ...sealChannelConfig(config, ctx.config),
        configMasked: maskChannelConfig(input.kind, config),
        kinds: input.kinds?.length ? [...new Set(input.kinds)] : null,
      })
      .returning();
    // The config stays out: its URLs and tokens are credentials, its addresses personal data.
    await recordAuditEvent(tx, {
      actor: ctx.actor,
      action: "alert_channel.created",
      targetType: "alert_channel",
      targetId: created!.id,
      data: { kind: created!.kind, name: created!.name, kinds: created!.kinds },
    });
    return created!;
  });
  const channel = toAlertChannel(row);
  return "secret" in config && config.secret ? { ...channel, secret: config.secret } : channel;
}
