/**
 * The worker process's metrics, all in one place: the delivery pump, alerts and the database-read
 * gauges call the record functions here, and worker/metrics.ts serves `workerRegistry` at /metrics.
 * The record functions sit on the hot path (thousands of attempts a second): counters and
 * histograms only, no I/O.
 */
import type { AttemptTrigger } from "../db/schema";
import { QUEUE_KINDS } from "../db/schema/messages";
import { createRegistry, seriesIn } from "./registry";

export const workerRegistry = createRegistry();
const { counter, histogram, gauge } = seriesIn(workerRegistry);

const attempts = counter(
  "attempts_total",
  "Delivery attempts this worker made, by result (success: a 2xx) and trigger (scheduled, probe, manual, recovery).",
  ["result", "trigger"],
);
const attemptDuration = histogram(
  "attempt_duration_seconds",
  "One attempt's HTTP exchange, from connect to the end of the kept response body, by result.",
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
  ["result"],
);
const firstAttemptLag = histogram(
  "first_attempt_lag_seconds",
  "From a delivery's creation (the message's ingest, by the database's clock) to the start of its first attempt.",
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
);
const claimBatchSize = histogram(
  "claim_batch_size",
  "Deliveries one claim leased (0: nothing due that this worker could take).",
  [0, 1, 2, 5, 10, 25, 50, 100, 250, 500, 1000],
);
const claimDuration = histogram(
  "claim_duration_seconds",
  "One claim's round trip (webhook_admin_claim_deliveries_v2).",
  [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
);
const alerts = counter(
  "alerts_total",
  "Alerts that ended, by outcome: sent, failed (its retry schedule used up) or suppressed (throttled).",
  ["outcome"],
);
const sweeps = counter("sweeps_total", "Maintenance sweeps this worker ran.");
const lateRecoveryItems = counter(
  "recovery_items_given_back_total",
  "Recovery items this worker claimed but could not start soon enough after the claim (its event loop or core busy elsewhere), given back unattempted so the run's rate holds at the receiver.",
);

let inFlightSource: () => number = () => 0;
gauge("attempts_in_flight", "Delivery attempts this worker has open now (claimed, not yet written).", [], function () {
  this.set(inFlightSource());
});

for (const result of ["success", "failure"]) {
  attemptDuration.labels(result);
  for (const trigger of ["scheduled", "probe", "manual", "recovery"]) attempts.labels(result, trigger);
}
for (const outcome of ["sent", "failed", "suppressed"]) alerts.labels(outcome);

/** The pump's own count of open attempts, read at scrape time. */
export function setAttemptsInFlightSource(read: () => number): void {
  inFlightSource = read;
}

/** Times a claim and records how many deliveries it leased. Returns the claim's own promise result. */
export async function observeClaim<T extends { deliveries: unknown[] }>(claim: Promise<T>): Promise<T> {
  const end = claimDuration.startTimer();
  const result = await claim;
  end();
  claimBatchSize.observe(result.deliveries.length);
  return result;
}

/**
 * A claimed delivery's attempt starts: its first scheduled one (kind QUEUE_KINDS.scheduled) is how
 * long it waited since creation — a resend or recovery of a never-attempted delivery days later is
 * no ingest lag.
 */
export function recordAttemptStart(delivery: { attempts: number; created_at: Date; kind: number }): void {
  if (delivery.attempts === 0 && delivery.kind === QUEUE_KINDS.scheduled) firstAttemptLag.observe(Math.max(0, (Date.now() - delivery.created_at.getTime()) / 1000));
}

/** An attempt's outcome (what was written to `attempts`). */
export function recordAttempt(outcome: { success: boolean; trigger: AttemptTrigger; durationMs: number }): void {
  const result = outcome.success ? "success" : "failure";
  attempts.labels(result, outcome.trigger).inc();
  attemptDuration.labels(result).observe(outcome.durationMs / 1000);
}

/** send_alert's result for one alert row; "retrying" and "skipped" have not ended. */
export function recordAlertSend(result: "sent" | "retrying" | "failed" | "skipped"): void {
  if (result === "sent" || result === "failed") alerts.labels(result).inc();
}

export function recordAlertsSuppressed(n: number): void {
  if (n > 0) alerts.labels("suppressed").inc(n);
}

export function recordLateRecoveryItems(n: number): void {
  lateRecoveryItems.inc(n);
}

export function recordSweep(): void {
  sweeps.inc();
}

// What the database says, read when Prometheus scrapes (refreshDatabaseGauges): the same in every
// worker, so sum nothing across instances — take max.
const queueDeliveries = gauge(
  "queue_deliveries",
  "Rows in delivery_queue by kind (scheduled, manual, recovery) and state (due, parked, later, leased); each count walks at most 10000 index entries (at the bound: at least).",
  ["kind", "state"],
);
const queueOldestDue = gauge(
  "queue_oldest_due_age_seconds",
  "How long the earliest due, unparked queue row of each kind has waited (0: nothing due).",
  ["kind"],
);
// Who is using the engine: the top CONSUMER_GAUGE_TOP consumers of each, by uid (a bounded set of
// series, whose members change as the load does: each scrape replaces them).
const consumerOldestDue = gauge(
  "consumer_oldest_due_age_seconds",
  "How long each consumer's earliest due scheduled attempt has waited: the consumers waiting longest (top 10).",
  ["consumer"],
);
const consumerDue = gauge("consumer_due_deliveries", "Due scheduled attempts of the consumers waiting longest (top 10; each counted to 10000).", ["consumer"]);
const consumerShare = gauge(
  "consumer_attempts_share",
  "Each consumer's share of all attempts over the last 15 minutes, from the rollup: the consumers with most (top 10).",
  ["consumer"],
);
const endpoints = gauge("endpoints", "Endpoints by state (active, disabled, auto_disabled).", ["state"]);
const endpointsFailing = gauge("endpoints_failing", "Active endpoints with a failure streak.");
const circuitsOpen = gauge("circuits_open", "Active endpoints whose circuit is open now.");
const recoveriesActive = gauge("recoveries_active", "Recovery runs not yet ended, by state (planned, canary, running, paused).", ["state"]);
const databaseUp = gauge(
  "database_up",
  "1 when this scrape's reads of the database answered, 0 when they failed (the database gauges are then absent).",
);
const databaseGauges = [queueDeliveries, queueOldestDue, consumerOldestDue, consumerDue, consumerShare, endpoints, endpointsFailing, circuitsOpen, recoveriesActive];
export const CONSUMER_GAUGE_TOP = 10;

export type DatabaseGaugeReads = {
  queue: () => Promise<{ kind: number; due: number; parked: number; later: number; leased: number; oldest_due_seconds: number }[]>;
  states: () => Promise<{ endpoints: Record<string, number>; failing: number; circuits_open: number; recoveries: Record<string, number> }>;
  /** Who is using the engine (lib/deliveries/read-consumer-load.ts's answer, as far as the gauges read it). */
  consumers: () => Promise<{
    waiting: { consumer: { uid: string }; oldest_due_at: string; due: number }[];
    shares: { consumers: { consumer: { uid: string }; share: number }[] };
  }>;
};

const KIND_NAMES = ["scheduled", "manual", "recovery"];
const ENDPOINT_STATE_NAMES = ["active", "disabled", "auto_disabled"];
const RECOVERY_STATE_NAMES = ["planned", "canary", "running", "paused"];

/** Reads the database's gauges (two statements) before a scrape renders; a failed read leaves them out, with database_up 0. */
export async function refreshDatabaseGauges(reads: DatabaseGaugeReads): Promise<void> {
  try {
    const [queue, states, load] = await Promise.all([reads.queue(), reads.states(), reads.consumers()]);
    for (const row of queue) {
      const kind = KIND_NAMES[row.kind] ?? String(row.kind);
      for (const state of ["due", "parked", "later", "leased"] as const) queueDeliveries.labels(kind, state).set(row[state]);
      queueOldestDue.labels(kind).set(row.oldest_due_seconds);
    }
    for (const gauge of [consumerOldestDue, consumerDue, consumerShare]) gauge.reset();
    const now = Date.now();
    for (const row of load.waiting) {
      consumerOldestDue.labels(row.consumer.uid).set(Math.max(0, (now - Date.parse(row.oldest_due_at)) / 1000));
      consumerDue.labels(row.consumer.uid).set(row.due);
    }
    for (const row of load.shares.consumers) consumerShare.labels(row.consumer.uid).set(row.share);
    for (const state of ENDPOINT_STATE_NAMES) endpoints.labels(state).set(states.endpoints[state] ?? 0);
    endpointsFailing.set(states.failing);
    circuitsOpen.set(states.circuits_open);
    for (const state of RECOVERY_STATE_NAMES) recoveriesActive.labels(state).set(states.recoveries[state] ?? 0);
    databaseUp.set(1);
  } catch (error) {
    for (const gauge of databaseGauges) gauge.reset();
    databaseUp.set(0);
    throw error;
  }
}

type PoolLike = { totalCount: number; idleCount: number; waitingCount: number };
let graphilePool: PoolLike | null = null;
gauge(
  "graphile_pool_connections",
  "graphile-worker's pg pool in this worker: connections open (total), idle, in_use, and clients waiting for one (waiting).",
  ["state"],
  function () {
    if (!graphilePool) return;
    this.labels("total").set(graphilePool.totalCount);
    this.labels("idle").set(graphilePool.idleCount);
    this.labels("in_use").set(graphilePool.totalCount - graphilePool.idleCount);
    this.labels("waiting").set(graphilePool.waitingCount);
  },
);

/** graphile-worker's pg pool, whose counts are read at scrape time (postgres.js's pools expose none). */
export function setGraphilePool(pool: PoolLike): void {
  graphilePool = pool;
}
