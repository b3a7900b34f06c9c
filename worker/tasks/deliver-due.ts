import type { Task } from "graphile-worker";
import { getConfig } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { deliverDueBatch } from "../../lib/deliveries/deliver-due";
import { wakeDeliveries } from "../../lib/jobs";
import { workerState } from "../state";

// A job keeps claiming while there is more due work, up to this many batches, then yields its
// slot — handing the rest to a fresh job, since nothing else may be scheduled to wake it.
const MAX_BATCHES_PER_JOB = 20;

export const deliverDue: Task = async () => {
  // From here on, new work needs a new wake-up: this task's claims may already have missed it.
  workerState.wakeRequested = false;
  const config = getConfig();
  const sql = getSql();
  let more = false;
  for (let i = 0; i < MAX_BATCHES_PER_JOB && !workerState.stopping; i++) {
    const result = await deliverDueBatch(sql, config);
    workerState.counters.batches += result.claimed > 0 ? 1 : 0;
    workerState.counters.attemptsSucceeded += result.succeeded;
    workerState.counters.attemptsFailed += result.failed;
    more = result.more;
    if (!more) break;
  }
  if (more && !workerState.stopping) await wakeDeliveries(sql);
};
