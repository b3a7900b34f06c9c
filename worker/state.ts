/** Process-wide worker state shared by tasks, the metrics endpoint and shutdown. */
export const workerState = {
  stopping: false,
  poolId: null as string | null,
  startedAt: Date.now(),
  counters: {
    attemptsSucceeded: 0,
    attemptsFailed: 0,
    batches: 0,
    resends: 0,
    sweeps: 0,
  },
};
