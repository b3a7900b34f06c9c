import type { Config } from "../config";
import type { Sql, SqlOrTx } from "../db/client";
import { deliveriesOfMessageColumnSql } from "../db/deliveries-of-messages";
import { moveRun } from "./transitions";
import { SYSTEM } from "../context";
import { QUEUE_KINDS, type SkipReason } from "../db/schema";
import { placeInLines } from "../ordering";
import { compileFilter, filterDocument } from "../filters";
import { deliveryIdFor } from "../ids";
import { TASKS, notifyDue } from "../jobs";
import { logger } from "../logger";
import { recordAuditEvent } from "../audit/record-audit-event";
import { isRetryableConflict } from "../db/errors";
import { findRecoveryRow, type RecoveryRow } from "./queries";
import { raiseRecoveryAlert, stopRecovery } from "./stop-recovery";
import { allowedBetween, rateAt } from "./ramp";
import { selectItems } from "./select-items";

/**
 * `consumerRate`: RECOVERY_CONSUMER_RATE, the most all of one consumer's running runs send a second
 * together; `selectBatch`: RECOVERY_SELECT_BATCH, items a selecting run freezes a tick.
 */
export type FeedPolicy = { rampEveryMs: number; consumerRate: number; selectBatch: number };

/** The feeder's policy from the settings, as the worker runs it. */
export function feedPolicy(config: Pick<Config, "RECOVERY_RAMP_EVERY" | "RECOVERY_CONSUMER_RATE" | "RECOVERY_SELECT_BATCH">): FeedPolicy {
  return { rampEveryMs: config.RECOVERY_RAMP_EVERY, consumerRate: config.RECOVERY_CONSUMER_RATE, selectBatch: config.RECOVERY_SELECT_BATCH };
}

// The least a run keeps queued, whatever its rate.
const MIN_QUEUED = 10;
// The queue holds at most this many seconds of a run's rate: a slow endpoint does not collect the
// whole run in the queue, and a pause has little to take back.
const QUEUE_SECONDS = 2;
// Rounds of taking items per run per tick when some of them turn out to be skipped.
const FEED_ROUNDS = 3;

/**
 * The feeder, run by the advance_recoveries task every RECOVERY_TICK while a run is active. Each
 * run is advanced in a transaction of its own under its row lock (a run another worker is advancing
 * is skipped): items whose queue row vanished are settled, the state moves (planned → canary →
 * running → completed, or paused by a stop rule), and the next items are queued within the run's
 * rate. Nothing here waits on HTTP: the attempts leave the queue through the claim like all work.
 * Returns whether any run still needs feeding, and how many items it queued.
 */
export async function advanceRecoveries(sql: Sql, policy: FeedPolicy): Promise<{ active: boolean; queued: number }> {
  const runs = await sql<{ id: string }[]>`select id from recoveries where state in ('planned', 'canary', 'running') order by created_at, id`;
  let queued = 0;
  for (const { id } of runs) {
    try {
      queued += await sql.begin((tx) => advanceRecovery(tx, id, policy));
    } catch (error) {
      if (!isRetryableConflict(error)) throw error;
      logger.debug("recovery advance conflicted; the next tick goes on", { recovery: id });
    }
  }
  const [left] = await sql<{ active: boolean }[]>`select exists (select 1 from recoveries where state in ('planned', 'canary', 'running')) as active`;
  return { active: left!.active, queued };
}

async function advanceRecovery(tx: SqlOrTx, id: string, policy: FeedPolicy): Promise<number> {
  const [locked] = await tx<Record<string, unknown>[]>`
    select *, now() as db_now from recoveries where id = ${id} and state in ('planned', 'canary', 'running') for update skip locked`;
  if (!locked) return 0;
  const now = (locked.db_now as Date).getTime();
  // The part of a ctx the run's reader uses: this transaction, as the system.
  const system = { sql: tx, actor: SYSTEM };
  let run = await findRecoveryRow(system, id);
  // A run still selecting its items only does that: it starts once they are all frozen.
  if (run.selecting) {
    await selectItems(tx, run, policy.selectBatch);
    return 0;
  }
  await settleVanished(tx, id);
  run = await findRecoveryRow(system, id);

  if (run.state === "planned") {
    await moveRun(tx, id, run.options.canary > 0 && run.expected > 0 ? "start_canary" : "start");
    run = await findRecoveryRow(system, id);
  }

  const threshold = run.options.stop_if_failure_ratio;
  const done = run.succeeded + run.failed + run.skipped;
  let feedLimit = Number.POSITIVE_INFINITY;
  if (run.state === "canary") {
    const canarySize = Math.min(run.options.canary, run.expected);
    if (done >= canarySize && run.queued === 0) {
      const attempted = run.succeeded + run.failed;
      if (attempted > 0 && run.failed / attempted > threshold) {
        await stopRecovery(tx, id, "canary_failed", { succeeded: run.succeeded, failed: run.failed });
        return 0;
      }
      await moveRun(tx, id, "pass_canary");
      run = await findRecoveryRow(system, id);
    } else {
      feedLimit = canarySize - done - run.queued;
    }
  }
  // (The failure-ratio rule of a running run is applied as its results are written: record-outcomes.)

  // The token bucket, filled at the ramped rate (lib/recoveries/ramp.ts); at most a second's worth
  // is saved up.
  const ramp = { target: run.options.rate_per_second, startedAt: run.state === "running" ? (run.rampStartedAt?.getTime() ?? now) : null, everyMs: policy.rampEveryMs };
  // The consumer's bound is shared equally by its runs that send: N runs cannot multiply it.
  const ramped = rateAt(ramp, now);
  const rate = Math.min(ramped, await consumerShare(tx, run.consumerId, policy.consumerRate));
  const accrued = allowedBetween(ramp, Math.min(now, run.tokensAt?.getTime() ?? now), now) * (rate / ramped);
  let tokens = Math.min(Math.max(1, rate), run.tokens + accrued);
  const room = Math.max(0, Math.max(MIN_QUEUED, Math.ceil(rate * QUEUE_SECONDS)) - run.queued);
  const wanted = Math.max(0, Math.min(Math.floor(tokens), room, feedLimit));
  const fed = wanted > 0 ? await feedItems(tx, run, wanted) : { queued: 0, skipped: 0 };
  tokens -= fed.queued;
  // The bucket paces the run on average; the claim holds it to `current_rate` in every second
  // (lib/deliveries/claim-due-deliveries.sql), whatever the queue holds and however fast it drains.
  await tx`update recoveries set tokens = ${tokens}, tokens_at = ${new Date(now)}, current_rate = ${rate}, updated_at = now() where id = ${id}`;
  if (fed.queued > 0) await notifyDue(tx, [QUEUE_KINDS.recovery]);

  run = await findRecoveryRow(system, id);
  if (run.succeeded + run.failed + run.skipped >= run.expected && run.queued === 0) {
    await moveRun(tx, id, "complete");
    await recordAuditEvent({ sql: tx, actor: SYSTEM }, {
      action: "recovery.completed",
      targetType: "recovery",
      targetId: id,
      data: { expected: run.expected, succeeded: run.succeeded, failed: run.failed, skipped: run.skipped },
    });
    await raiseRecoveryAlert({ ctx: { sql: tx }, id, kind: "recovery.finished" });
  }
  return fed.queued;
}

/** Each sending run's part of its consumer's RECOVERY_CONSUMER_RATE (this run counted). */
async function consumerShare(tx: SqlOrTx, consumerId: string, consumerRate: number): Promise<number> {
  const [row] = await tx<{ n: number }[]>`
    select count(*)::int as n from recoveries where consumer_id = ${consumerId} and state in ('canary', 'running') and not selecting`;
  return consumerRate / Math.max(1, row!.n);
}

// Why an item is not sent at its turn, from what exists now. Null: it goes. A message removed by
// retention, or whose payload was expunged, can no longer be sent: `payload_expired`.
const skipReasonSql = (tx: SqlOrTx) => tx`
  case when m.id is null or m.payload_expunged_at is not null then 'payload_expired' when e.id is null then 'endpoint_deleted'
       when d.status = 'succeeded' then 'already_succeeded' when e.state <> 'active' then 'endpoint_disabled' end`;

/**
 * Queued items whose queue row is gone without an outcome: the claim dropped it (the delivery
 * succeeded meanwhile, the endpoint stopped), or a deletion took it along. They are skipped with
 * the reason that holds now, or, if none does (an endpoint enabled again), queued again later.
 */
async function settleVanished(tx: SqlOrTx, id: string): Promise<void> {
  await tx`
    with lost as (
      select i.seq, ${skipReasonSql(tx)} as reason
      from recovery_items i
      left join messages m on m.id = i.message_id
      left join endpoints e on e.id = i.endpoint_id
      left join deliveries d on ${deliveriesOfMessageColumnSql(tx, "d", "i.message_id")} and d.endpoint_id = i.endpoint_id
      where i.recovery_id = ${id} and i.outcome = 'queued'
        and not exists (select 1 from delivery_queue q where q.delivery_id = i.delivery_id and q.kind = webhook_admin_queue_kind('recovery'))
    ),
    settled as (
      update recovery_items i set outcome = case when lost.reason is null then 'pending' else 'skipped' end,
        skip_reason = lost.reason, updated_at = now()
      from lost where i.recovery_id = ${id} and i.seq = lost.seq and i.outcome = 'queued'
      returning i.outcome
    )
    update recoveries set queued = queued - (select count(*) from settled),
      skipped = skipped + (select count(*) from settled where outcome = 'skipped')
    where id = ${id} and exists (select 1 from settled)`;
}

/** The items (never attempted) whose endpoint's payload filter refuses their message now; a filter that cannot run refuses nothing. */
async function refusedByFilters(tx: SqlOrTx, items: Candidate[]): Promise<Set<number>> {
  if (items.length === 0) return new Set();
  const rows = await tx<{ seq: number; event_type: string; payload: string; filter: string }[]>`
    select v.seq, m.event_type, m.payload, e.filter::text as filter
    from unnest(${items.map((i) => String(i.seq))}::text[]::int[], ${items.map((i) => i.message_id)}::text[], ${items.map((i) => i.endpoint_id)}::text[])
      as v(seq, message_id, endpoint_id)
    join endpoints e on e.id = v.endpoint_id and e.filter is not null
    join messages m on m.id = v.message_id`;
  const refused = new Set<number>();
  for (const row of rows) {
    try {
      if (!compileFilter(row.filter)(filterDocument({ eventType: row.event_type, payload: JSON.parse(row.payload) }))) refused.add(row.seq);
    } catch {
      // Delivered, as ingest delivers past a filter that cannot run.
    }
  }
  return refused;
}

type Candidate = { seq: number; message_id: string; endpoint_id: string; delivery_id: string | null; reason: SkipReason | null; line_key: string | null };

/**
 * Queues the next pending items, oldest message first, as recovery rows of the delivery queue.
 * An item that must not be sent is skipped instead (and does not count against the rate); a
 * message the endpoint never got gets its delivery now.
 */
async function feedItems(tx: SqlOrTx, run: RecoveryRow, wanted: number): Promise<{ queued: number; skipped: number }> {
  let queued = 0;
  let skipped = 0;
  for (let round = 0; round < FEED_ROUNDS && queued < wanted; round++) {
    const items = await tx<Candidate[]>`
      select i.seq, i.message_id, i.endpoint_id, d.id as delivery_id, ${skipReasonSql(tx)} as reason,
        case when e.ordering = 'ordered' then webhook_admin_line_key(webhook_admin_payload_jsonb(m.payload), e.ordering_key) end as line_key
      from (select seq, message_id, endpoint_id from recovery_items
            where recovery_id = ${run.id} and outcome = 'pending' order by seq limit ${wanted - queued}) i
      left join messages m on m.id = i.message_id
      left join endpoints e on e.id = i.endpoint_id
      left join deliveries d on ${deliveriesOfMessageColumnSql(tx, "d", "i.message_id")} and d.endpoint_id = i.endpoint_id
      order by i.seq`;
    if (items.length === 0) break;
    // The messages about to be queued, key-share locked: a payload expunge or the retention sweep
    // holding one is waited for (or, for the sweep, holds back), and a message that is gone or
    // expunged by then is skipped now rather than sent without its payload.
    const fresh = items.filter((i) => i.reason === null);
    const sendable = new Set(
      fresh.length === 0
        ? []
        : (await tx<{ id: string }[]>`
            select id from messages where id = any(${[...new Set(fresh.map((i) => i.message_id))].sort()}) and payload_expunged_at is null
            order by id for key share`).map((m) => m.id),
    );
    for (const item of fresh) if (!sendable.has(item.message_id)) item.reason = "payload_expired";
    // A message the endpoint never got is given to it only if its payload filter takes it now, as
    // ingest would have (a delivery it already has was through the filter once).
    const refused = await refusedByFilters(tx, fresh.filter((i) => i.reason === null && i.delivery_id === null));
    for (const item of fresh) if (refused.has(item.seq)) item.reason = "filtered";
    const going = items.filter((i) => i.reason === null);
    const unborn = going.filter((i) => i.delivery_id === null);
    if (unborn.length > 0) {
      // Each message's partition's unique (message_id, endpoint_id) index is the arbiter: deliveries
      // are partitioned by id, so no index of the parent can name those columns (ADR 0034).
      await tx`
        insert into deliveries (id, message_id, endpoint_id, consumer_id, status, last_error)
        select unnest(${unborn.map((i) => deliveryIdFor(i.message_id))}::text[]), unnest(${unborn.map((i) => i.message_id)}::text[]),
               unnest(${unborn.map((i) => i.endpoint_id)}::text[]), ${run.consumerId}, 'canceled', 'not_delivered_before_recovery'
        on conflict do nothing`;
    }
    if (going.length > 0) {
      // At an ordered endpoint, a run's items keep their lines too: replayed one at a time per line, oldest first.
      const placed = new Map(
        (await placeInLines(tx, going.flatMap((i) => (i.line_key === null ? [] : [{ endpointId: i.endpoint_id, key: i.line_key, item: i.seq }])), QUEUE_KINDS.recovery)).map(
          (p) => [p.item, p] as const,
        ),
      );
      const lineOf = (i: Candidate) => placed.get(i.seq);
      await tx`
        with v as (select * from unnest(${going.map((i) => String(i.seq))}::text[]::int[], ${going.map((i) => i.message_id)}::text[],
                                        ${going.map((i) => i.endpoint_id)}::text[], ${going.map((i) => lineOf(i)?.key ?? null)}::text[],
                                        ${going.map((i) => (lineOf(i) ? String(lineOf(i)!.seq) : null))}::text[]::bigint[],
                                        ${going.map((i) => String(lineOf(i)?.held ?? false))}::text[]::boolean[]) as v(seq, message_id, endpoint_id, line_key, line_seq, held)),
        -- One delivery per item, read by its own message's bound: a lateral (its LIMIT keeps it
        -- one) is a nested loop whatever the statistics say, so every day before each message's
        -- is pruned at run time; a hash join, which small partitions invite, reads them all.
        t as (select v.seq, d.id as delivery_id, d.endpoint_id, v.line_key, v.line_seq, v.held from v
              cross join lateral (select d.id, d.endpoint_id from deliveries d
                                  where ${deliveriesOfMessageColumnSql(tx, "d", "v.message_id")} and d.endpoint_id = v.endpoint_id limit 1) d),
        q as (
          insert into delivery_queue (delivery_id, kind, endpoint_id, consumer_id, next_attempt_at, recovery_id, line_key, line_seq)
          select t.delivery_id, webhook_admin_queue_kind('recovery'), t.endpoint_id, ${run.consumerId},
                 case when t.held then 'infinity' else date_trunc('milliseconds', now()) end, ${run.id}, t.line_key, t.line_seq from t
          on conflict (delivery_id, kind) do nothing
        )
        update recovery_items i set outcome = 'queued', delivery_id = t.delivery_id, updated_at = now()
        from t where i.recovery_id = ${run.id} and i.seq = t.seq`;
    }
    const skips = items.filter((i) => i.reason !== null);
    if (skips.length > 0) {
      await tx`
        update recovery_items i set outcome = 'skipped', skip_reason = v.reason, delivery_id = coalesce(i.delivery_id, v.delivery_id), updated_at = now()
        from unnest(${skips.map((i) => String(i.seq))}::text[]::int[], ${skips.map((i) => i.reason!)}::text[],
                    ${skips.map((i) => i.delivery_id) as string[]}::text[]) as v(seq, reason, delivery_id)
        where i.recovery_id = ${run.id} and i.seq = v.seq`;
    }
    queued += going.length;
    skipped += skips.length;
  }
  if (queued + skipped > 0) {
    await tx`update recoveries set queued = queued + ${queued}, skipped = skipped + ${skipped} where id = ${run.id}`;
  }
  // The run's send log, which the claim locks and never creates (it would wait on this run's row,
  // which outcome writes lock); an existing one is left as it is, without waiting for a claim.
  if (queued > 0) await tx`insert into recovery_sends (recovery_id, consumer_id) values (${run.id}, ${run.consumerId}) on conflict (recovery_id) do nothing`;
  return { queued, skipped };
}

/**
 * The feeder's safety net, for a worker's start and the minute sweep: if a run is active, its job
 * is added — a successor, should the job be locked by a worker that died mid-tick.
 */
export function wakeActiveRecoveries(sql: SqlOrTx) {
  return sql`
    select graphile_worker.add_job(${TASKS.advanceRecoveries}, '{}'::json, job_key := ${TASKS.advanceRecoveries},
                                   job_key_mode := 'preserve_run_at', max_attempts := 10)
    where exists (select 1 from recoveries where state in ('planned', 'canary', 'running'))`;
}
