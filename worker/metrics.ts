import { createServer, type Server } from "node:http";
import { logger } from "../lib/logger";
import { workerState } from "./state";

function render(): string {
  const c = workerState.counters;
  const p = workerState.pump?.counters ?? { batches: 0, succeeded: 0, failed: 0, resends: 0 };
  const lines = [
    "# HELP webhook_admin_attempts_total Delivery attempts made by this worker, by result.",
    "# TYPE webhook_admin_attempts_total counter",
    `webhook_admin_attempts_total{result="success"} ${p.succeeded}`,
    `webhook_admin_attempts_total{result="failure"} ${p.failed}`,
    "# HELP webhook_admin_delivery_batches_total Claimed delivery batches.",
    "# TYPE webhook_admin_delivery_batches_total counter",
    `webhook_admin_delivery_batches_total ${p.batches}`,
    "# HELP webhook_admin_attempts_in_flight Delivery attempts this worker has open now.",
    "# TYPE webhook_admin_attempts_in_flight gauge",
    `webhook_admin_attempts_in_flight ${workerState.pump?.attemptsInFlight ?? 0}`,
    "# HELP webhook_admin_resends_total Manual and recovery attempts made by this worker.",
    "# TYPE webhook_admin_resends_total counter",
    `webhook_admin_resends_total ${p.resends}`,
    "# HELP webhook_admin_sweeps_total Maintenance sweeps run.",
    "# TYPE webhook_admin_sweeps_total counter",
    `webhook_admin_sweeps_total ${c.sweeps}`,
    "# HELP webhook_admin_worker_uptime_seconds Seconds since this worker started.",
    "# TYPE webhook_admin_worker_uptime_seconds gauge",
    `webhook_admin_worker_uptime_seconds ${Math.round((Date.now() - workerState.startedAt) / 1000)}`,
  ];
  return lines.join("\n") + "\n";
}

/**
 * The worker's only HTTP: /metrics (Prometheus text) and /health, on WORKER_METRICS_HOST
 * (127.0.0.1 unless the operator opens it wider). Port 0 picks a free port.
 */
export function startMetricsServer(port: number, host: string): Promise<Server | null> {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      if (req.url === "/metrics") {
        res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end(render());
      } else if (req.url === "/health") {
        const ok = !workerState.stopping && workerState.poolId !== null;
        res.writeHead(ok ? 200 : 503, { "content-type": "application/json" }).end(JSON.stringify({ status: ok ? "ok" : "stopping" }));
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
