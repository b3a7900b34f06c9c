import type { Ctx } from "../context";
import type { Counts } from "./counts";
import { drain } from "./drain";

/** Rollup rows removed per statement. */
export const ROLLUP_BATCH = 5_000;

/**
 * Removes rollup rows past their retention: hourly rows (GET /stats by the hour and the day) after
 * STATS_RETENTION, minute rows after STATS_MINUTE_RETENTION, ROLLUP_BATCH rows per statement by
 * attempt_stats_t_idx, until none is left or `deadline` passes. The rollup is apart from the
 * message log: expiring messages leaves it as it was, so GET /stats over expired time is unchanged.
 * Nothing else writes rows this old (compaction folds into the current minute and hour).
 */
export async function trimRollup(ctx: Ctx, { deadline, batchSize = ROLLUP_BATCH }: { deadline: number; batchSize?: number }) {
  const { sql, config } = ctx;
  const removed: Counts = {};
  let more = false;
  for (const [bucketSeconds, keepMs] of [
    [60, config.STATS_MINUTE_RETENTION],
    [3600, config.STATS_RETENTION],
  ] as const) {
    const trimmed = await drain(
      async () => {
        const done = await sql`
          delete from attempt_stats where (scope, bucket_seconds, t) in (
            select scope, bucket_seconds, t from attempt_stats
            where bucket_seconds = ${bucketSeconds} and t < now() - ${keepMs} * interval '1 millisecond'
            limit ${batchSize})`;
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
