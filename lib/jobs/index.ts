import { asTextArray } from "../db/arrays";
import type { SqlOrTx } from "../db/client";
import { QUEUE_KINDS, type QueueKind } from "../db/schema/messages";

/** Every graphile-worker task the worker runs, by the name jobs carry. */
export const TASKS = {
  deliverDue: "deliver_due",
  sweep: "sweep",
  sendAlerts: "send_alerts",
  sendAlert: "send_alert",
  advanceRecoveries: "advance_recoveries",
  eraseConsumer: "erase_consumer",
  purgePayloads: "purge_payloads",
} as const;

/** The channel due work is announced on; every worker listens and has its pump claim. */
export const WAKE_CHANNEL = "webhook_admin_due";

/**
 * The cheap wake-up: a NOTIFY, sent on commit with the transaction that made work due. Adding a
 * keyed graphile job from every ingest instead makes all concurrent ingests queue on that one job
 * row (ADR 0003 has what that cost); each worker's listener has its pump claim at
 * once instead. If no worker listens, the deliveries wait for a worker's start-up wake or the
 * minute sweep. Ingest sends its wake-up after its commit instead (notifyDueAfterCommit).
 */
export function notifyDue(tx: SqlOrTx, kinds?: readonly QueueKind[]) {
  return tx`select pg_notify(${WAKE_CHANNEL}, ${wakePayload(kinds)})`;
}

/**
 * A wake-up's payload: the queue kinds that came due ("2", "0,1"), so a worker claims in the lanes
 * serving them only (worker/delivery-pump.ts); empty for any. The claim writes the same form.
 */
export function wakePayload(kinds?: readonly QueueKind[]): string {
  return kinds ? kinds.join(",") : "";
}

/** The kinds a wake-up's payload names; undefined for any. */
export function kindsOfWake(payload: string | undefined): QueueKind[] | undefined {
  if (!payload) return undefined;
  const known: readonly number[] = Object.values(QUEUE_KINDS);
  const kinds = payload
    .split(",")
    .filter((part) => /^\d+$/.test(part))
    .map(Number)
    .filter((kind): kind is QueueKind => known.includes(kind));
  return kinds.length > 0 ? kinds : undefined;
}

type Round = { done: Promise<void>; resolve: () => void };
type Notifier = { sending: boolean; next: Round | null };
const notifiers = new WeakMap<object, Notifier>();

function round(): Round {
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  return { done, resolve };
}

/**
 * Ingest's wake-up, sent once its transaction has committed, on the pool, and coalesced per
 * process: at most one NOTIFY in flight, and one more after it for all the commits that came
 * meanwhile — so every commit is followed by a NOTIFY that started after it, and however many
 * ingests commit at once, one NOTIFY per round trip goes out, not one per transaction. A
 * transaction that notifies holds one lock, database-wide, through its commit (PostgreSQL's
 * notification queue): a NOTIFY in every ingest transaction made concurrent ingests commit one at
 * a time (ADR 0035; docs/benchmarks.md#a3-ingests-wake-up). Ingest does not wait for it (the returned
 * promise settles when that NOTIFY is sent; it never rejects: `onError` hears of a failure). If
 * the process dies between the commit and the NOTIFY, or it fails, the work waits for the next
 * wake-up (another ingest's, a claim's, a worker's start, the sweep): it is committed, never lost.
 * It names the scheduled kind, all ingest makes due: a worker's recovery lane is not woken for it.
 */
export function notifyDueAfterCommit(pool: SqlOrTx, onError: (error: unknown) => void): Promise<void> {
  let notifier = notifiers.get(pool);
  if (!notifier) notifiers.set(pool, (notifier = { sending: false, next: null }));
  const state = notifier;
  if (state.sending) return (state.next ??= round()).done;
  state.sending = true;
  const first = round();
  void (async () => {
    let current: Round | null = first;
    while (current) {
      try {
        await notifyDue(pool, [QUEUE_KINDS.scheduled]);
      } catch (error) {
        onError(error);
      }
      current.resolve();
      current = state.next;
      state.next = null;
    }
    state.sending = false;
  })();
  return first.done;
}

/**
 * Wakes a delivery task, inside the transaction that made work due: at once, or when `at` comes.
 * The keying (one job per 100 ms bucket, updated in place while waiting, a successor when running)
 * lives in SQL, in webhook_admin_wake_deliveries, because the claim function wakes tasks too.
 */
export function wakeDeliveries(tx: SqlOrTx, at?: number) {
  return wake(tx, [at === undefined ? null : new Date(at)]);
}

/** Wake-ups for a set of due times, one per bucket, in one statement. */
export function wakeDeliveriesAt(tx: SqlOrTx, times: number[]) {
  return times.length === 0 ? null : wake(tx, times.map((t) => new Date(t)));
}

// null is "now" by the database's clock.
function wake(tx: SqlOrTx, times: (Date | null)[]) {
  return tx`select webhook_admin_wake_deliveries(${asTextArray(times)}::text[]::timestamptz[])`;
}

/**
 * When a claim's lease runs out, a wake-up job: if the worker holding it died, its deliveries are
 * due again then and this job finds them — recovery is bounded by the lease, not by the sweep.
 * One a second per process is enough (concurrent claims would otherwise queue on the job row):
 * this gives the lease's end rounded up to the next second, or null once a committed claim has added
 * that second's job (leaseWakeAdded).
 */
let lastLeaseWake = 0;

export function leaseWakeDue(leaseEnd: number): Date | null {
  // A second's margin: the lease's end is the database's clock plus the lease, read a little later.
  const bucket = Math.ceil((leaseEnd + 1000) / 1000) * 1000;
  return bucket === lastLeaseWake ? null : new Date(bucket);
}

export function leaseWakeAdded(at: Date): void {
  lastLeaseWake = at.getTime();
}

/**
 * Wakes the recovery feeder (one keyed job for all runs: runs are fed one at a time, each under
 * its row lock), at once or after `delayMs`. A job already waiting keeps its earlier time; one that
 * is running gets a successor.
 */
export function wakeRecoveries(tx: SqlOrTx, delayMs = 0) {
  return tx`select graphile_worker.add_job(${TASKS.advanceRecoveries}, '{}'::json, run_at := now() + ${delayMs} * interval '1 millisecond',
                                            job_key := ${TASKS.advanceRecoveries}, job_key_mode := 'preserve_run_at', max_attempts := 10)`;
}

/**
 * The next sweep, `afterMs` from now, unless one is already waiting to run by then: one keyed job
 * for every worker process (a later one is brought forward: SWEEP_INTERVAL may have been
 * shortened). The sweep adds its successor as it ends, and each worker adds one at start and with
 * every heartbeat, so the chain survives a sweep that failed or died with its worker (whose job
 * stays locked until the next sweep releases it: another is added meanwhile).
 */
export function scheduleSweep(tx: SqlOrTx, afterMs: number) {
  return tx`
    select graphile_worker.add_job(${TASKS.sweep}, '{}'::json, run_at := now() + ${afterMs} * interval '1 millisecond',
                                   job_key := ${TASKS.sweep}, job_key_mode := 'replace', max_attempts := 1)
    where not exists (
      select 1 from graphile_worker.jobs
      where key = ${TASKS.sweep} and locked_at is null and run_at <= now() + ${afterMs} * interval '1 millisecond')`;
}

/** The job key of one erasure's task: one job per erasure. */
const erasureKey = (erasureId: string) => `${TASKS.eraseConsumer}:${erasureId}`;

/** Runs (or goes on with) a consumer's erasure at once, or at `at`, replacing a job waiting for it. */
export function wakeErasure(tx: SqlOrTx, erasureId: string, at: Date | null = null) {
  return tx`
    select graphile_worker.add_job(${TASKS.eraseConsumer}, json_build_object('erasure_id', ${erasureId}::text),
                                   run_at := coalesce(${at}::timestamptz, now()), job_key := ${erasureKey(erasureId)},
                                   job_key_mode := 'replace', max_attempts := 25)`;
}

/** Goes on with a consumer's payload purge (lib/retention/purge-payloads.ts): one job per purge. */
export function wakePurge(tx: SqlOrTx, purgeId: string, after: { at: string; id: string } | null) {
  return tx`
    select graphile_worker.add_job(${TASKS.purgePayloads}, json_build_object('purge_id', ${purgeId}::text, 'after', ${after ? tx.json(after) : null}::json),
                                   job_key := ${`${TASKS.purgePayloads}:${purgeId}`}, job_key_mode := 'replace', max_attempts := 25)`;
}

/**
 * The sweep's safety net for erasures: a running erasure with no job (its request ended before it
 * did, its job ran out of tries) gets one. Its batches serialize on the erasure's row, so a job
 * added while another runner is still at work only takes turns with it.
 */
export function wakeStrandedErasures(tx: SqlOrTx) {
  return tx`
    select graphile_worker.add_job(${TASKS.eraseConsumer}, json_build_object('erasure_id', e.id),
                                   run_at := greatest(now(), e.settles_at), job_key := ${TASKS.eraseConsumer} || ':' || e.id,
                                   job_key_mode := 'preserve_run_at', max_attempts := 25)
    from erasures e
    where e.state = 'running' and not exists (select 1 from graphile_worker.jobs j where j.key = ${TASKS.eraseConsumer} || ':' || e.id)`;
}
