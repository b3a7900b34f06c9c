import type { Task } from "graphile-worker";
import { getConfig } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { deliverDueBatch } from "../../lib/deliveries/deliver-due";
import { workerState } from "../state";

// A job keeps claiming while there is more due work, up to this many batches, then yields its slot.
const MAX_BATCHES_PER_JOB = 20;

export const deliverDue: Task = async () => {
  const config = getConfig();
  for (let i = 0; i < MAX_BATCHES_PER_JOB && !workerState.stopping; i++) {
    const result = await deliverDueBatch(getSql(), config);
    workerState.counters.batches += result.claimed > 0 ? 1 : 0;
    workerState.counters.attemptsSucceeded += result.succeeded;
    workerState.counters.attemptsFailed += result.failed;
    if (!result.more) break;
  }
};
