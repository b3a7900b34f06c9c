import { z } from "zod";
import { scheduleSweep, TASKS } from "../../lib/jobs";
import { sweep as runSweep } from "../../lib/maintenance/sweep";
import { recordSweep } from "../../lib/metrics/worker";
import { systemCtx } from "../../lib/open-ctx";
import { retentionBudgetMs } from "../../lib/retention/run-retention";
import { defineJob } from "../define-job";
import { workerState } from "../state";

/** The periodic sweep (lib/maintenance/sweep.ts); it schedules the next, SWEEP_INTERVAL on, however it ends. */
export const sweep = defineJob({ name: TASKS.sweep, schema: z.object({}), run: async (_payload, helpers) => {
  const ctx = systemCtx();
  try {
    const result = await runSweep({ ctx });
    workerState.counters.sweeps += 1;
    recordSweep();
    if (result.deadWorkers.length > 0) helpers.logger.warn(`released jobs of dead workers: ${result.deadWorkers.join(", ")}`);
    // Retention stopped at its budget with more due: the next sweep comes after a pause as long
    // as that budget (so the backlog goes at half the database's time, at most), if that is sooner.
    if (result.retention.more) await scheduleSweep(ctx.sql, Math.min(ctx.config.SWEEP_INTERVAL, retentionBudgetMs(ctx.config.SWEEP_INTERVAL)));
  } finally {
    await scheduleSweep(ctx.sql, ctx.config.SWEEP_INTERVAL);
  }
} });
