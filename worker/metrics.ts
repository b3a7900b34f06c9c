import { createServer, type Server } from "node:http";
import { getSql, ormOver } from "../lib/db/client";
import { readConsumerLoad } from "../lib/deliveries/read-consumer-load";
import { readQueueDepth } from "../lib/deliveries/read-queue-depth";
import { countEndpointStates } from "../lib/endpoints/count-endpoint-states";
import { logger } from "../lib/logger";
import { metricsRequestAllowed } from "../lib/metrics/metrics-token";
import { CONSUMER_GAUGE_TOP, refreshDatabaseGauges, workerRegistry } from "../lib/metrics/worker";
import { workerState } from "./state";

const DATABASE_TIMEOUT_MS = 3000;

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} timed out after ${DATABASE_TIMEOUT_MS} ms`)), DATABASE_TIMEOUT_MS).unref()),
  ]);
}

async function renderMetrics(): Promise<string> {
  const sql = getSql();
  await withTimeout(
    refreshDatabaseGauges({
      queue: () => readQueueDepth(sql),
      states: () => countEndpointStates(sql),
      consumers: () => readConsumerLoad(ormOver(sql), { top: CONSUMER_GAUGE_TOP }),
    }),
    "reading the queue, endpoint and consumer gauges",
  ).catch((error: unknown) => logger.warn("metrics: the database gauges could not be read", { error: String(error) }));
  return workerRegistry.metrics();
}

/** Liveness and readiness of a worker: running, not stopping, and its database answers. */
async function health(): Promise<{ ok: boolean; body: Record<string, unknown> }> {
  if (workerState.stopping) return { ok: false, body: { status: "stopping" } };
  if (workerState.poolId === null) return { ok: false, body: { status: "starting" } };
  const started = performance.now();
  try {
    await withTimeout(getSql()`select 1`.execute(), "select 1");
    return { ok: true, body: { status: "ok", database: { ok: true, latency_ms: Math.round(performance.now() - started) } } };
  } catch (error) {
    const latency = Math.round(performance.now() - started);
    logger.warn("worker health: the database is unavailable", { latency_ms: latency, error: String(error) });
    return { ok: false, body: { status: "unavailable", database: { ok: false, latency_ms: latency } } };
  }
}

/**
 * The worker's only HTTP: /metrics (Prometheus text, lib/metrics/worker.ts) and /health, on
 * WORKER_METRICS_HOST (127.0.0.1 unless the operator opens it wider). Port 0 picks a free port.
 * With `metricsToken` (METRICS_TOKEN) set, /metrics is the web app's /api/metrics' check: 404 unless
 * the request carries it as a bearer. Unset, /metrics stays open, as before, to whoever can reach
 * the port; /health is always open (the container's HEALTHCHECK and probes).
 */
export function startMetricsServer(port: number, host: string, metricsToken?: string): Promise<Server | null> {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      const path = (req.url ?? "").split("?")[0];
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD" }).end();
      } else if (path === "/metrics" && metricsToken !== undefined && !metricsRequestAllowed(metricsToken, req.headers.authorization ?? null)) {
        res.writeHead(404, { "content-type": "text/plain", "cache-control": "no-store" }).end("Not Found");
      } else if (path === "/metrics") {
        renderMetrics().then(
          (text) => res.writeHead(200, { "content-type": workerRegistry.contentType }).end(text),
          (error: unknown) => {
            logger.error("metrics: rendering failed", { error: String(error) });
            res.writeHead(500).end();
          },
        );
      } else if (path === "/health") {
        void health().then(({ ok, body }) => res.writeHead(ok ? 200 : 503, { "content-type": "application/json" }).end(JSON.stringify(body)));
      } else {
        res.writeHead(404).end();
      }
    });
    server.once("error", (error) => {
      logger.warn("metrics server not started", { host, port, error: String(error) });
      resolve(null);
    });
    server.listen(port, host, () => resolve(server));
  });
}
