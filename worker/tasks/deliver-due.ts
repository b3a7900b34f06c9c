import type { Task } from "graphile-worker";
import { getSql } from "../../lib/db/client";
import { wakeDeliveries } from "../../lib/jobs";
import { workerState } from "../state";

// A job keeps claiming while there is more due work, up to this many batches, then yields its
// slot — handing the rest to a fresh job, since nothing else may be scheduled to wake it.
const MAX_BATCHES_PER_JOB = 20;

export const deliverDue: Task = async () => {
  const pump = workerState.pump;
  if (!pump) throw new Error("deliver_due ran before the worker's delivery pump was started");
  if (await pump.claimWhileDue(MAX_BATCHES_PER_JOB)) await wakeDeliveries(getSql());
};
