import { asTextArray } from "../db/arrays";
import type { SqlOrTx } from "../db/client";
import { TASKS } from "../jobs";

/** A consumer alert email goes out through the one SMTP server: its sends share one queue. */
export const EMAIL_QUEUE = "alerts:email";

/**
 * Sends to one target run one at a time: each channel (and the SMTP server) has a graphile named
 * queue of its own. A channel that hangs then holds at most one worker slot — never the slots
 * deliveries need, nor another channel's — however many alerts are waiting for it.
 */
export function queueFor(channelId: string | null): string {
  return channelId ? `alerts:${channelId}` : EMAIL_QUEUE;
}

/** One send_alert job per alert log row, in the caller's transaction; one statement for all. */
export function enqueueAlertSends(tx: SqlOrTx, sends: { alertId: string; queue: string }[], runAt: Date | null = null) {
  if (sends.length === 0) return null;
  // A send records its own outcome and schedules its own retry (ALERT_RETRY_SCHEDULE); graphile's
  // attempts only cover faults (the database lost mid-send).
  return tx`
    select graphile_worker.add_job(${TASKS.sendAlert}, json_build_object('alert_id', x.id), queue_name := x.queue,
      run_at := ${runAt}::timestamptz, max_attempts := 5)
    from unnest(${asTextArray(sends.map((s) => s.alertId))}::text[], ${asTextArray(sends.map((s) => s.queue))}::text[]) as x(id, queue)`;
}
