import type { QueueKind } from "../lib/db/schema/messages";
import type { DeliveryPump } from "./delivery-pump";

/** Process-wide worker state shared by tasks, the metrics endpoint and shutdown. */
export const workerState = {
  stopping: false,
  poolId: null as string | null,
  startedAt: Date.now(),
  pump: null as DeliveryPump | null,
  counters: {
    sweeps: 0,
  },
};

/**
 * Has this process's delivery pump claim now: the one way in, whoever asks (ingest's NOTIFY through
 * the wake listener, a deliver_due job, the recovery feeder after queueing items). `kinds`: the
 * queue kinds that came due, when known (a NOTIFY's payload names them: lib/jobs wakePayload), so
 * only the lanes serving them claim; without, every lane.
 */
export function wakePump(kinds?: readonly QueueKind[]): void {
  const pump = workerState.pump;
  if (!pump) throw new Error("the delivery pump was woken before the worker started it");
  pump.wake(kinds);
}
