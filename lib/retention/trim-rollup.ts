import type { Ctx } from "../context";
import type { Sql } from "../db/client";
import type { Counts } from "./counts";
import { drain } from "./drain";
import { ROLLUP_HOURS, ROLLUP_MINUTES, dropPartition, partitionsOf } from "./partitions";

/** Rollup rows removed per statement. */
export const ROLLUP_BATCH = 5_000;

/**
 * Removes rollup rows past their retention: hourly rows (GET /stats by the hour and the day) after
 * STATS_RETENTION, minute rows after STATS_MINUTE_RETENTION. Whole partitions past it go first (a
 * day of minute rows, a month of hourly rows: migration 0020), then what is left — the partition
 * only partly past, and the default partition — ROLLUP_BATCH rows per statement by
 * attempt_stats_t_idx, until none is left or `deadline` passes. The rollup is apart from the
 * message log: expiring messages leaves it as it was, so GET /stats over expired time is unchanged.
 * Nothing else writes rows this old (compaction folds into the current minute and hour).
 */
export async function trimRollup({ ctx, deadline, batchSize = ROLLUP_BATCH }: { ctx: Ctx; deadline: number; batchSize?: number }) {
  const { sql, config } = ctx;
  const removed: Counts = {};
  let more = false;
  for (const [series, bucketSeconds, keepMs] of [
    [ROLLUP_MINUTES, 60, config.STATS_MINUTE_RETENTION],
    [ROLLUP_HOURS, 3600, config.STATS_RETENTION],
  ] as const) {
    for (const p of await partitionsOf(sql as Sql, series)) {
      if (p.end > Date.now() - keepMs || Date.now() >= deadline) break;
      await dropPartition(sql as Sql, "attempt_stats", p.name, removed);
    }
    const trimmed = await drain(
      async () => {
        // The range twice: the outer one prunes the delete to the partitions it can touch.
        const past = sql`bucket_seconds = ${bucketSeconds} and t < now() - ${keepMs} * interval '1 millisecond'`;
        const done = await sql`
          delete from attempt_stats where ${past} and (scope, bucket_seconds, t) in (
            select scope, bucket_seconds, t from attempt_stats where ${past} limit ${batchSize})`;
        return { seen: done.count, removed: { attempt_stats: done.count } };
      },
      batchSize,
      deadline,
    );
    removed.attempt_stats = (removed.attempt_stats ?? 0) + (trimmed.removed.attempt_stats ?? 0);
    more ||= trimmed.more;
    if (trimmed.more) break;
  }
  if (!removed.attempt_stats) delete removed.attempt_stats;
  return { removed, more };
}
