import type { SqlOrTx } from "../db/client";
import { notifyDue, notifyDueAfterCommit, wakeDeliveries } from "../jobs";
import { QUEUE_KINDS } from "../db/schema/messages";
import { logger } from "../logger";

/**
 * How the workers hear of the deliveries a write makes due:
 * - `job`: due later (the schedule's first delay): a job for that time, written with them;
 * - `notify`: due at once, written in a caller's transaction: a NOTIFY inside it, as its commit is
 *   the caller's;
 * - `after-commit`: due at once: a NOTIFY after the commit, on the pool, coalesced per process. A
 *   NOTIFY inside every ingest transaction made concurrent ingests commit one at a time (ADR 0035).
 */
export type WakeUp = "job" | "notify" | "after-commit";

export function chooseWakeUp(firstDelay: number, inCallersTransaction: boolean): WakeUp {
  return firstDelay > 0 ? "job" : inCallersTransaction ? "notify" : "after-commit";
}

/** The wake-up written with the deliveries, in their transaction. */
export function wakeInTransaction(tx: SqlOrTx, wakeUp: "job" | "notify", firstAttemptAt: Date) {
  return wakeUp === "job" ? wakeDeliveries(tx, firstAttemptAt.getTime()) : notifyDue(tx, [QUEUE_KINDS.scheduled]);
}

/** The wake-up after the commit; not waited for: work committed is never lost, only later (lib/jobs). */
export function wakeAfterCommit(pool: SqlOrTx): void {
  void notifyDueAfterCommit(pool, (error) => logger.warn("the wake-up after ingest failed; the next wake-up or the sweep delivers", { error: String(error) }));
}
