import type { Ctx } from "../context";
import { addCounts, type Counts } from "./counts";
import { expireMessages } from "./expire-messages";
import { expirePortalAccess } from "./expire-portal-access";
import { expireOperatorSessions } from "./expire-operator-sessions";
import { expireRecoveries } from "./expire-recoveries";
import { dropExpiredPartitions } from "./drop-expired-partitions";
import { makePartitions } from "./partitions";
import { trimAuditLog } from "./trim-audit-log";
import { trimRollup } from "./trim-rollup";

/**
 * The retention part of one sweep's time: half its interval, between 1 s and 30 s. A backlog larger
 * than that (the first sweep after enabling retention on a large install) is worked off over the
 * following sweeps, each stopping at its budget.
 */
export function retentionBudgetMs(sweepIntervalMs: number): number {
  return Math.min(30_000, Math.max(1_000, Math.floor(sweepIntervalMs / 2)));
}

/**
 * One sweep's retention: the partitions ahead are made (lib/retention/partitions.ts), portal
 * sessions and links and operators' ended sessions an hour past their end removed, whole days past their retention dropped,
 * then expired messages in what is left (the bulk of the bytes), finished recovery runs, the rollup, and the audit and alert logs — the runs' items and the rollup
 * too a whole partition at a time first — each in bounded batches, within one budget from
 * `startedAt`. `more`: the budget ran out with rows still due.
 */
export async function runRetention({ ctx, startedAt = Date.now() }: { ctx: Ctx; startedAt?: number }): Promise<{ removed: Counts; more: boolean }> {
  const deadline = startedAt + retentionBudgetMs(ctx.config.SWEEP_INTERVAL);
  const removed: Counts = {};
  await makePartitions({ ctx });
  for (const step of [expirePortalAccess, expireOperatorSessions, dropExpiredPartitions, expireMessages, expireRecoveries, trimRollup, trimAuditLog]) {
    const done = await step({ ctx, deadline });
    addCounts(removed, done.removed);
    if (done.more) return { removed, more: true };
  }
  return { removed, more: false };
}
