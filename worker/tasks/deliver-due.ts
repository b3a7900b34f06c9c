import type { Task } from "graphile-worker";
import { workerState } from "../state";

/**
 * A wake-up job (a retry or parked delivery coming due, a lease running out, the sweep): the pump
 * claims in its own loop for as long as due work remains, as it does for ingest's NOTIFY.
 */
export const deliverDue: Task = async () => {
  const pump = workerState.pump;
  if (!pump) throw new Error("deliver_due ran before the worker's delivery pump was started");
  pump.wake();
};
