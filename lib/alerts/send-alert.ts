import { RECOVERY_ALERT_KINDS, type AlertKind } from "./kinds";
import { inTransaction, type Ctx } from "../context";
import { isConnectionError } from "../db/errors";
import { logger } from "../logger";
import type { ChannelKind } from "./channel-config";
import { openChannelConfig } from "./channel-config";
import { sendConsumerEmail, sendToChannel, type SendOutcome } from "./channels";
import { enqueueAlertSends, queueFor } from "./enqueue";
import { AlertFacts } from "./facts";
import { releaseThrottle } from "./throttle";

type ClaimedAlert = {
  id: string;
  endpoint_id: string | null;
  channel_id: string | null;
  recipient: string | null;
  payload: unknown;
  attempts: number;
  created_at: Date;
};

async function tryOnce({ sql, config }: Ctx, alert: ClaimedAlert, facts: AlertFacts): Promise<SendOutcome> {
  if (!alert.channel_id) return sendConsumerEmail(alert.recipient!, facts, config);
  const [channel] = await sql<{ id: string; kind: ChannelKind; config_ciphertext: string }[]>`
    select id, kind, config_ciphertext from alert_channels where id = ${alert.channel_id}`;
  if (!channel) return { ok: false, error: "the channel was deleted", message: null, final: true };
  let channelConfig: Record<string, unknown>;
  try {
    channelConfig = openChannelConfig(channel.config_ciphertext, config);
  } catch {
    // A key missing from ENCRYPTION_KEY/ENCRYPTION_KEYS_PREVIOUS will not come back by retrying.
    return { ok: false, error: "the channel's config cannot be decrypted with the configured keys", message: null, final: true };
  }
  return sendToChannel({ id: channel.id, kind: channel.kind, config: channelConfig }, facts, alert.id, config);
}

/**
 * One try of one alert log row to its target. The outcome is domain data: `sent`, or the error
 * kept on the row and the next try queued after ALERT_RETRY_SCHEDULE's next delay, or `failed`
 * when the schedule is used up. Only a database fault throws (graphile retries the job then).
 */
export async function sendAlert({ ctx, alertId }: { ctx: Ctx; alertId: string }): Promise<"sent" | "retrying" | "failed" | "skipped"> {
  const { sql, config } = ctx;
  const [alert] = await sql<ClaimedAlert[]>`
    update alerts set attempts = attempts + 1, updated_at = now()
    where id = ${alertId} and status = 'pending'
    returning id, endpoint_id, channel_id, recipient, payload, attempts, created_at`;
  if (!alert) return "skipped";
  const facts = AlertFacts.parse(alert.payload);
  const outcome = await tryOnce(ctx, alert, facts).catch((error: unknown): SendOutcome => {
    if (isConnectionError(error)) throw error;
    // Rendering or sending threw on something a customer wrote: this alert's failed try, kept on
    // its row, never a job that graphile retries blindly.
    logger.error("an alert send failed inside Webhook Admin", { alert_id: alert.id, endpoint_id: alert.endpoint_id, channel_id: alert.channel_id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    return { ok: false, error: "internal error while sending (the worker's log has the cause)", message: null };
  });

  if (outcome.ok) {
    await sql`update alerts set status = 'sent', error = null, message = ${outcome.message}, updated_at = now() where id = ${alert.id}`;
    return "sent";
  }
  const delay = outcome.final ? undefined : config.ALERT_RETRY_SCHEDULE[alert.attempts];
  if (delay === undefined) {
    await inTransaction(ctx, async ({ sql: tx }) => {
      await tx`update alerts set status = 'failed', error = ${outcome.error}, message = ${outcome.message}, updated_at = now() where id = ${alert.id}`;
      // A failed send must not use up its target's window (test alerts have none).
      if (alert.endpoint_id && !RECOVERY_ALERT_KINDS.includes(facts.kind as AlertKind)) {
        await releaseThrottle(tx, {
          id: alert.id,
          endpointId: alert.endpoint_id,
          target: alert.channel_id ?? `email:${alert.recipient}`,
          folded: facts.folded,
          since: facts.folded > 0 && facts.folded_since ? new Date(facts.folded_since) : alert.created_at,
        });
      }
    });
    logger.warn("alert failed", { alert_id: alert.id, endpoint_id: alert.endpoint_id, channel_id: alert.channel_id, attempts: alert.attempts, error: outcome.error });
    return "failed";
  }
  await inTransaction(ctx, async ({ sql: tx }) => {
    await tx`update alerts set error = ${outcome.error}, message = ${outcome.message}, updated_at = now() where id = ${alert.id}`;
    await enqueueAlertSends(tx, [{ alertId: alert.id, queue: queueFor(alert.channel_id) }], new Date(Date.now() + delay));
  });
  return "retrying";
}
