import type { SqlOrTx } from "../db/client";

/** Every graphile-worker task the worker runs, by the name jobs carry. */
export const TASKS = {
  deliverDue: "deliver_due",
  resendDelivery: "resend_delivery",
  sweep: "sweep",
  sendAlerts: "send_alerts",
  sendAlert: "send_alert",
} as const;

// Retries coming due are woken by one job per 100 ms bucket, so a batch of failures schedules a
// handful of wake-ups rather than one job per delivery.
const WAKE_BUCKET_MS = 100;

export function wakeBucket(at: number, size = WAKE_BUCKET_MS): number {
  return Math.ceil(at / size) * size;
}

/** The channel ingest notifies on; every worker listens and turns it into a wake-up job. */
export const WAKE_CHANNEL = "webhook_admin_due";

/**
 * The cheap wake-up for ingest: a NOTIFY, sent on commit with the transaction that wrote the
 * deliveries. Adding a keyed graphile job from every ingest instead makes all concurrent ingests
 * queue on that one job row (measured: about 250 messages/s on 2 cores); the workers' listeners
 * add the job instead, at most one pending at a time. If no worker listens, the deliveries wait
 * for a worker's start-up wake or the minute sweep.
 */
export function notifyDue(tx: SqlOrTx) {
  return tx`select pg_notify(${WAKE_CHANNEL}, '')`;
}

/**
 * Wakes a delivery task, inside the transaction that made work due. One job key per due time: a
 * waiting wake-up is updated in place and one already running gets a successor (graphile's job_key
 * semantics), so a committed delivery never waits for the periodic sweep.
 */
export function wakeDeliveries(tx: SqlOrTx, at?: number) {
  if (at === undefined || at <= Date.now()) {
    return tx`select graphile_worker.add_job(${TASKS.deliverDue}, '{}'::json, job_key := ${TASKS.deliverDue}, max_attempts := 10)`;
  }
  const bucket = wakeBucket(at);
  return tx`select graphile_worker.add_job(${TASKS.deliverDue}, '{}'::json, run_at := ${new Date(bucket)}::timestamptz,
    job_key := ${`${TASKS.deliverDue}@${bucket}`}, job_key_mode := 'preserve_run_at', max_attempts := 10)`;
}

/**
 * A wake-up when a claim's lease runs out: if the worker holding it died, its deliveries are due
 * again then and this job finds them — recovery is bounded by the lease, not by the sweep.
 * One-second buckets keep this to at most one job a second however many batches are claimed.
 */
let lastLeaseWake = 0;

export function wakeAtLeaseEnd(tx: SqlOrTx, leaseEnd: number) {
  const bucket = wakeBucket(leaseEnd, 1000);
  // One per second per process is enough; concurrent batches would otherwise queue on the job row.
  if (bucket === lastLeaseWake) return null;
  lastLeaseWake = bucket;
  return tx`select graphile_worker.add_job(${TASKS.deliverDue}, '{}'::json, run_at := ${new Date(bucket)}::timestamptz,
    job_key := ${`${TASKS.deliverDue}@lease@${bucket}`}, job_key_mode := 'preserve_run_at', max_attempts := 10)`;
}

/** Wake-ups for a set of due times, one per bucket. */
export function wakeDeliveriesAt(tx: SqlOrTx, times: number[]) {
  // In ascending order: transactions adding the same keyed jobs in different orders could deadlock.
  return [...new Set(times.map((t) => wakeBucket(t)))].sort((a, b) => a - b).map((bucket) => wakeDeliveries(tx, bucket));
}

export type ResendPayload = { delivery_id: string; trigger: "manual" | "recovery"; recovery_id?: string };

export function enqueueResend(tx: SqlOrTx, payload: ResendPayload) {
  return tx`select graphile_worker.add_job(${TASKS.resendDelivery}, ${tx.json(payload)}::json, max_attempts := 5)`;
}
