import type { Sql } from "../lib/db/client";
import { WAKE_CHANNEL, wakeDeliveries } from "../lib/jobs";
import { logger } from "../lib/logger";
import { workerState } from "./state";

/**
 * Turns ingest's NOTIFY into a delivery job. At most one wake-up is requested until a delivery
 * task starts, however many messages arrive meanwhile; every (re)connection also wakes once, for
 * anything committed while this worker was not listening.
 */
export async function listenForDueWork(sql: Sql): Promise<{ stop: () => Promise<void> }> {
  const wake = () => {
    if (workerState.wakeRequested || workerState.stopping) return;
    workerState.wakeRequested = true;
    wakeDeliveries(sql).catch((error: unknown) => {
      workerState.wakeRequested = false;
      logger.warn("could not request a delivery wake-up", { error: String(error) });
    });
  };
  const subscription = await sql.listen(WAKE_CHANNEL, wake, wake);
  return { stop: () => subscription.unlisten() };
}
