import type { Ctx } from "../context";
import type { Sql } from "../db/client";
import { ID_PREFIXES, idBoundAt } from "../ids";
import { addCounts, type Counts } from "./counts";
import { drain } from "./drain";
import { RECOVERY_WEEKS, dropPartition, partitionsOf } from "./partitions";

/** Rows removed per statement. */
export const RECOVERY_BATCH = 5_000;

/**
 * Removes recovery runs that finished (completed or canceled) longer than RETENTION_PERIOD ago,
 * with their items — the reconciliation report. A run still active keeps its items, those of
 * expired messages included, which its feeder skips with `payload_expired`; they go when the run,
 * finished, has expired in turn. Items are partitioned by their run's week (migration 0020): a week
 * whose runs have all expired is dropped whole (once it ended RETENTION_PERIOD ago, so no run can
 * still be made in it); the rest — items in the default partition, or in a week with a run still
 * kept — and then the runs go in bounded batches.
 */
export async function expireRecoveries({ ctx, deadline, batchSize = RECOVERY_BATCH }: { ctx: Ctx; deadline: number; batchSize?: number }) {
  const { sql, config } = ctx;
  const isExpired = sql`state in ('completed', 'canceled') and finished_at < now() - ${config.RETENTION_PERIOD} * interval '1 millisecond'`;
  const expired = sql`select id from recoveries where ${isExpired}`;
  const removed: Counts = {};
  for (const p of await partitionsOf(sql as Sql, RECOVERY_WEEKS)) {
    if (p.end > Date.now() - config.RETENTION_PERIOD || Date.now() >= deadline) break;
    const kept = await sql`
      select 1 from recoveries
      where id >= ${idBoundAt(ID_PREFIXES.recovery, p.start)} and id < ${idBoundAt(ID_PREFIXES.recovery, p.end)} and not (${isExpired}) limit 1`;
    if (kept.length === 0) await dropPartition(sql as Sql, "recovery_items", p.name, removed);
  }
  const items = await drain(
    async () => {
      const done = await sql`
        delete from recovery_items where (recovery_id, seq) in (
          select recovery_id, seq from recovery_items where recovery_id in (${expired}) limit ${batchSize})`;
      return { seen: done.count, removed: { recovery_items: done.count } };
    },
    batchSize,
    deadline,
  );
  addCounts(removed, items.removed);
  if (items.more) return { removed, more: true };
  const runs = await drain(
    async () => {
      // recovery_sends goes with its run (foreign key).
      const done = await sql`delete from recoveries where id in (${expired} limit ${batchSize})`;
      return { seen: done.count, removed: { recoveries: done.count } };
    },
    batchSize,
    deadline,
  );
  addCounts(removed, runs.removed);
  return { removed, more: runs.more };
}
