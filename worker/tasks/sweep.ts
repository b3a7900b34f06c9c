import type { Task } from "graphile-worker";
import { getConfig } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { sweep as runSweep } from "../../lib/maintenance/sweep";
import { recordSweep } from "../../lib/metrics/worker";
import { workerState } from "../state";

export const sweep: Task = async (_payload, helpers) => {
  const config = getConfig();
  const result = await runSweep(getSql(), { disableAfterMs: config.ENDPOINT_DISABLE_AFTER, failingAfterMs: config.ALERT_FAILING_AFTER });
  workerState.counters.sweeps += 1;
  recordSweep();
  if (result.deadWorkers.length > 0) helpers.logger.warn(`released jobs of dead workers: ${result.deadWorkers.join(", ")}`);
};
