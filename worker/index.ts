/**
 * The worker sidecar: runs every delivery, resend and sweep as graphile-worker tasks against the
 * same Postgres as the web app. Any number of workers may run; all coordination is in Postgres.
 */
import { ConfigError, parseConfig } from "../lib/config";
import { checkEncryptionKey } from "../lib/crypto/key-check";
import { closeDb, getSql } from "../lib/db/client";
import { installDatabaseCrashGuard } from "../lib/db/crash-guard";
import { migrateOnStart } from "../lib/db/migrate";
import { logger } from "../lib/logger";
import { startTracing, stopTracing } from "../lib/telemetry/tracing";
import { VERSION } from "../lib/version";
import { startMetricsServer } from "./metrics";
import { startWorker, withDatabaseRetry } from "./runtime";

async function main(): Promise<void> {
  installDatabaseCrashGuard("worker");
  // Concurrent batches each claim and record in their own transactions; with the web app's pool
  // of 10 they queue for connections (bench/results/2026-12-01-delivery-a-to-d.md, "What these
  // figures say": the worker's pool).
  process.env.DATABASE_POOL_SIZE ||= "30";
  const config = parseConfig(process.env);
  const url = process.env.DATABASE_URL;
  if (!url) throw new ConfigError("DATABASE_URL is required: npm run worker runs against an existing database (npm start runs everything)");
  // Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; a collector that is down never stops the worker.
  await startTracing("worker");
  await withDatabaseRetry("migrate", () => migrateOnStart(url, config.MIGRATE_ON_START, "worker"));
  await withDatabaseRetry("check ENCRYPTION_KEY", () => checkEncryptionKey(getSql(), config));
  if (config.ALLOW_PRIVATE_ENDPOINTS) logger.warn("ALLOW_PRIVATE_ENDPOINTS=true: deliveries may reach loopback and private addresses");
  else if (config.ALLOWED_ENDPOINT_CIDRS.length) logger.info("SSRF guard allowlist", { cidrs: config.ALLOWED_ENDPOINT_CIDRS.map((c) => c.text) });

  const worker = await startWorker(url, config);
  const metrics = await startMetricsServer(config.WORKER_METRICS_PORT, config.WORKER_METRICS_HOST, config.METRICS_TOKEN);
  const address = metrics?.address();

  const stop = async (signal: string) => {
    logger.info("worker stopping: finishing in-flight attempts", { signal });
    await worker.stop();
    metrics?.close();
    await closeDb();
    // The last attempts' and outcomes' spans.
    await stopTracing();
    logger.info("worker stopped");
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  // Only now: whoever waits for this line may signal the process at once.
  logger.info("worker started", {
    version: VERSION,
    pool: worker.poolId,
    concurrency: config.WORKER_CONCURRENCY,
    metrics: typeof address === "object" && address ? `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}/metrics` : null,
  });
  await worker.done;
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else logger.error("worker crashed", { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
