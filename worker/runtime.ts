import { EventEmitter } from "node:events";
import { Logger, run, type WorkerEvents, type WorkerPool } from "graphile-worker";
import type { Config } from "../lib/config";
import type { Ctx } from "../lib/context";
import { getSql } from "../lib/db/client";
import { nodePostgresPool } from "../lib/db/node-postgres";
import { closeDestinations } from "../lib/destinations";
import { DeliveryPump } from "./delivery-pump";
import { isConnectionError } from "../lib/db/errors";
import { scheduleSweep, wakeDeliveries } from "../lib/jobs";
import { logger } from "../lib/logger";
import { setAttemptsInFlightSource, setGraphilePool } from "../lib/metrics/worker";
import { beatWorker, unregisterWorker } from "../lib/maintenance/workers";
import { JobAlarm } from "./job-alarm";
import { JOBS, taskListOf } from "./jobs";
import { workerState } from "./state";
import { listenForDueWork } from "./wake-listener";
import { wakeActiveRecoveries } from "../lib/recoveries/advance-recoveries";
import { COMPACT_EVERY_MS, compactStats } from "../lib/stats/compact-stats";

const taskList = taskListOf(JOBS);

const HEARTBEAT_MS = 10_000;
// Each graphile worker polls on its own: WORKER_CONCURRENCY of them at this interval. Jobs due now
// come by NOTIFY, jobs due later by the JobAlarm's timer, so the poll is only a last resort.
const POLL_INTERVAL_MS = 10 * 60_000;

// graphile logs every completed job at info; ours logs what a person needs: its warnings and errors.
const graphileLogger = new Logger(() => (level, message) => {
  if (level === "error") logger.error(message, { source: "graphile-worker" });
  else if (level === "warning") logger.warn(message, { source: "graphile-worker" });
  else logger.debug(message, { source: "graphile-worker" });
});

export async function withDatabaseRetry<T>(what: string, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!isConnectionError(error) || workerState.stopping) throw error;
      logger.warn(`${what}: database unreachable, retrying`, { attempt, error: String(error) });
      await new Promise((r) => setTimeout(r, Math.min(5000, 250 * attempt)));
    }
  }
}

/**
 * Folds the stats rollup's appended rows every COMPACT_EVERY_MS while this worker makes attempts,
 * and once more after its last (whose outcome may have been committing during the fold before);
 * an idle worker sends nothing. The minute sweep folds whatever is left behind. The first turn
 * falls at a random point of the period, so workers started together do not reach for the lock
 * at once. Returns the stop function.
 */
function startCompaction(ctx: Pick<Ctx, "sql">, pump: DeliveryPump): () => void {
  let seen = 0;
  let quietTurns = 0;
  const turn = () => {
    const attempts = pump.counters.succeeded + pump.counters.failed;
    quietTurns = attempts === seen ? quietTurns + 1 : 0;
    seen = attempts;
    if (quietTurns > 1) return;
    compactStats({ ctx }).catch((error: unknown) => logger.warn("stats compaction failed; the next one folds what it left", { error: String(error) }));
  };
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    turn();
    interval = setInterval(turn, COMPACT_EVERY_MS);
  }, Math.random() * COMPACT_EVERY_MS);
  return () => {
    clearTimeout(first);
    clearInterval(interval);
  };
}

export type WorkerHandle = { poolId: string | null; stop: () => Promise<void>; done: Promise<void> };

/**
 * Starts graphile-worker with our tasks on `url`, registers the pool for the dead-worker sweep and
 * beats its heartbeat. `stop()` stops taking work and waits for in-flight attempts to finish.
 */
export async function startWorker(url: string, config: Config): Promise<WorkerHandle> {
  workerState.stopping = false;
  const pump = new DeliveryPump(getSql(), config);
  workerState.pump = pump;
  setAttemptsInFlightSource(() => pump.attemptsInFlight);
  const pgPool = nodePostgresPool(url, { max: config.WORKER_CONCURRENCY + 4 });
  setGraphilePool(pgPool);
  pgPool.on("error", (error) => logger.warn("graphile pool client error", { error: String(error) }));
  pgPool.on("connect", (client) => client.on("error", (error) => logger.warn("graphile client error", { error: String(error) })));

  const events: WorkerEvents = new EventEmitter();
  let poolId: string | null = null;
  let workerPool: WorkerPool | undefined;
  events.on("pool:create", ({ workerPool: created }) => {
    poolId = created.id;
    workerPool = created;
    workerState.poolId = created.id;
  });
  let alarm: JobAlarm | undefined;
  events.on("job:error", ({ job, error }) => {
    const last = job.attempts >= job.max_attempts;
    logger.error(last ? "job failed its last attempt; graphile gives up on it" : "job failed; graphile will retry it", {
      task: job.task_identifier,
      job_id: job.id,
      attempts: job.attempts,
      error: String(error),
    });
    // graphile writes the retry's time just after this event (the retry is seconds away): the
    // alarm looks once that is written.
    alarm?.soon(250);
  });

  const runner = await run({
    pgPool,
    concurrency: config.WORKER_CONCURRENCY,
    pollInterval: POLL_INTERVAL_MS,
    noHandleSignals: true,
    taskList,
    // The sweep is no cron job: every SWEEP_INTERVAL (which may be under a minute), one keyed job
    // for all workers, which each sweep chains to the next and every heartbeat keeps there.
    events,
    logger: graphileLogger,
    gracefulShutdownAbortTimeout: config.DELIVERY_TIMEOUT + 5_000,
  });

  const sql = getSql();
  const id = poolId as string | null;
  if (id) await withDatabaseRetry("register", () => beatWorker(sql, id));
  await withDatabaseRetry("schedule the sweep", () => scheduleSweep(sql, config.SWEEP_INTERVAL));
  const heartbeat = setInterval(() => {
    if (id) beatWorker(sql, id).catch((error) => logger.warn("heartbeat failed", { error: String(error) }));
    scheduleSweep(sql, config.SWEEP_INTERVAL).catch((error) => logger.warn("could not schedule the sweep", { error: String(error) }));
  }, HEARTBEAT_MS);
  if (workerPool) {
    alarm = new JobAlarm(sql, workerPool);
    await withDatabaseRetry("job alarm", () => alarm!.start());
  }
  const compaction = startCompaction({ sql }, pump);
  // Whatever came due while no worker ran is picked up now, not at the next sweep.
  await withDatabaseRetry("wake", () => wakeDeliveries(sql));
  // A run whose feeder died with another worker goes on here.
  await withDatabaseRetry("wake recoveries", () => wakeActiveRecoveries(sql));
  const listener = await withDatabaseRetry("listen", () => listenForDueWork(sql));

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      workerState.stopping = true;
      pump.stop();
      clearInterval(heartbeat);
      compaction();
      await listener.stop().catch(() => {});
      await alarm?.stop().catch(() => {});
      await runner.stop().catch((error: unknown) => logger.warn("runner stop", { error: String(error) }));
      // Tasks only start attempts; the attempts themselves (each bounded by DELIVERY_TIMEOUT) and
      // their outcome writes are waited for here.
      await pump.drain();
      closeDestinations();
      if (id) await unregisterWorker(sql, id).catch(() => {});
      await pgPool.end().catch(() => {});
    })());
  // Awaited by the process entry point (a dead runner ends the process, and a supervisor starts a
  // new one); marked handled here so an embedding that does not await it is not torn down.
  runner.promise.catch((error: unknown) => logger.error("worker runner stopped with an error", { error: String(error) }));
  return { poolId: id, stop, done: runner.promise };
}
