import type { Ctx } from "../context";
import type { Counts } from "./counts";

/** Sweep runs the table keeps: the last hour and a half at the default interval. */
export const SWEEP_RUNS_KEPT = 100;

/** Writes what one sweep did (sweep_runs) and drops the runs beyond the last SWEEP_RUNS_KEPT. */
export async function recordSweepRun({
  ctx,
  run,
}: {
  ctx: Ctx;
  run: { startedAt: Date; removed: Counts; more: boolean; error: string | null };
}): Promise<void> {
  const { sql } = ctx;
  await sql`
    insert into sweep_runs (started_at, finished_at, duration_ms, removed, more, error)
    values (${run.startedAt}, now(), greatest(0, round(extract(epoch from clock_timestamp() - ${run.startedAt}::timestamptz) * 1000))::int,
            ${sql.json(run.removed)}, ${run.more}, ${run.error})`;
  await sql`delete from sweep_runs where id <= (select id from sweep_runs order by id desc offset ${SWEEP_RUNS_KEPT} limit 1)`;
}
