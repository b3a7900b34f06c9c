import type { Ctx } from "../context";
import { addCounts, type Counts } from "./counts";
import { drain } from "./drain";

/** Rows removed per statement. */
export const RECOVERY_BATCH = 5_000;

/**
 * Removes recovery runs that finished (completed or canceled) longer than RETENTION_PERIOD ago,
 * with their items — the reconciliation report — in bounded batches. A run still active keeps its
 * items, those of expired messages included, which its feeder skips with `payload_expired`; they
 * go when the run, finished, has expired in turn.
 */
export async function expireRecoveries(ctx: Ctx, { deadline, batchSize = RECOVERY_BATCH }: { deadline: number; batchSize?: number }) {
  const { sql, config } = ctx;
  const expired = sql`
    select id from recoveries
    where state in ('completed', 'canceled') and finished_at < now() - ${config.RETENTION_PERIOD} * interval '1 millisecond'`;
  const removed: Counts = {};
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
