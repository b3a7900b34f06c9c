import type { Ctx } from "../context";
import { readSchemaStatus } from "../db/schema-status";
import { logger } from "../logger";
import { isShuttingDown } from "../runtime/lifecycle";
import { VERSION } from "../version";

export type Readiness =
  | { status: "ready"; version: string }
  | { status: "not_ready"; reason: "shutting_down" | "database_unavailable" | "migrations_pending"; version: string };

const TIMEOUT_MS = 3000;

/**
 * Whether this web process should get traffic: not stopping, the database answers, and it has
 * every migration this code was built with. Anyone may ask, so the answer names a reason and no
 * details; the details go to the log.
 */
export async function checkReadiness({ sql }: Ctx): Promise<Readiness> {
  if (isShuttingDown()) return { status: "not_ready", reason: "shutting_down", version: VERSION };
  try {
    const status = await Promise.race([
      readSchemaStatus(sql),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref()),
    ]);
    if (status.pending.length > 0) {
      logger.warn("readiness: migrations pending (run `npm run migrate`)", { pending: status.pending });
      return { status: "not_ready", reason: "migrations_pending", version: VERSION };
    }
    return { status: "ready", version: VERSION };
  } catch (error) {
    logger.warn("readiness: the database is unavailable", { error: String(error) });
    return { status: "not_ready", reason: "database_unavailable", version: VERSION };
  }
}
