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
