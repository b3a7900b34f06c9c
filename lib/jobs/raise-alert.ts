import type { JSONValue } from "postgres";
import type { Ctx } from "../context";
import { TASKS } from ".";
import { z } from "zod";
import { ALERT_KINDS, type AlertKind } from "../db/schema/enums";

export type { AlertKind } from "../db/schema/enums";

/** An alert about an endpoint, or (the recovery kinds) about a consumer's run, with its endpoint if it has one. */
export type RaisedAlert = { kind: AlertKind; endpointId: string | null; consumerId?: string; data: Record<string, unknown> };

/** The send_alerts job's payload: what raiseAlerts knew when the change happened. */
export const SendAlertsPayload = z.object({
  alerts: z.array(
    z.object({
      kind: z.enum(ALERT_KINDS),
      endpoint_id: z.string().nullable(),
      consumer_id: z.string().optional(),
      data: z.record(z.string(), z.unknown()),
      raised_at: z.string(),
    }),
  ),
});
export type SendAlertsPayload = z.infer<typeof SendAlertsPayload>;

/**
 * Raises alerts INSIDE the transaction that made the state change: one graphile job carries them
 * all (one statement however many alerts), so they are sent if and only if the change commits.
 * The worker's send_alerts task then looks up the endpoint and its consumer, applies the throttle
 * and fans out to every channel and consumer alert email (lib/alerts/fan-out-alerts.ts).
 *
 * `data` holds the kind's facts, snake_case: `reason`, `failing_since`, `last_status_code`,
 * `last_error`, `message_id`, `delivery_id`, `event_type`, `attempts` (any others are passed on
 * to the webhook channel as they are).
 */
export async function raiseAlerts({ sql }: Pick<Ctx, "sql">, alerts: RaisedAlert[]): Promise<void> {
  if (alerts.length === 0) return;
  // max_attempts: the fan-out is one transaction, so a retry after a fault cannot send twice.
  await sql`select graphile_worker.add_job(${TASKS.sendAlerts}, ${sql.json(sendAlertsPayload(alerts) as unknown as JSONValue)}::json, max_attempts := 10)`;
}

function sendAlertsPayload(alerts: RaisedAlert[]): SendAlertsPayload {
  const raisedAt = new Date().toISOString();
  return {
    alerts: alerts.map((a) => ({ kind: a.kind, endpoint_id: a.endpointId, ...(a.consumerId ? { consumer_id: a.consumerId } : {}), data: a.data, raised_at: raisedAt })),
  };
}
