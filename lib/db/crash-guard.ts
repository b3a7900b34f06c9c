import { isConnectionError } from "./errors";
import { logger } from "../logger";

/**
 * A database restart must not end a process. graphile-worker 0.17 leaves a rejection unhandled
 * when it cannot record a job's failure while the database is gone, and postgres.js 3.4.9 throws
 * from a setImmediate when a connection dies with a write buffered (porsager/postgres#1154;
 * scripts/patch-postgres.mjs fixes the driver at install, this is the second line). In both the
 * query was already failed and is retried. Anything else ends the worker (see below).
 */
function isDriverWriteAfterClose(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /reading 'write'/.test(error.message) &&
    /postgres[\\/]src[\\/]connection\.js/.test(error.stack ?? "")
  );
}

/**
 * `web` keeps serving after an unhandled rejection (logged): it is one request's stray promise,
 * and ending the process for it would let any client that can cause one take the site down — as
 * Next.js itself does without this guard. The worker still ends, and its leases bring its work back.
 */
export function installDatabaseCrashGuard(role: "web" | "worker"): void {
  process.on("uncaughtException", (error) => {
    if (isDriverWriteAfterClose(error)) {
      logger.warn("database connection closed mid-write; the query was already failed and will be retried");
      return;
    }
    logger.error("uncaught exception", { error: error.stack ?? String(error) });
    process.exit(1);
  });
  process.on("unhandledRejection", (reason) => {
    if (isConnectionError(reason)) {
      logger.warn("database unreachable in a background operation", { error: String(reason) });
      return;
    }
    logger.error("unhandled rejection", { error: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason) });
    if (role === "worker") process.exit(1);
  });
}
