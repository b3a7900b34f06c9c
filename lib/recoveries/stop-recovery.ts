import { SYSTEM, type Ctx } from "../context";
import type { SqlOrTx } from "../db/client";
import { recordAuditEvent } from "../audit/record-audit-event";
import { pullBackQueued } from "./transition";
import { moveRun } from "./transitions";
import { raiseAlerts } from "../jobs/raise-alert";

// The stop rule looks at the last RESULT_WINDOW attempt results (kept on the run's row), once there
// are at least MIN_RESULTS of them (or as many as the run can make), so one early failure cannot
// stop a run.
export const RESULT_WINDOW = 50;
const MIN_RESULTS = 10;

export type StopRuleInput = { state: string; recent: string; expected: number; skipped: number; threshold: number };

/** True when a running run's recent results fail more often than its stop_if_failure_ratio. */
export function tripsStopRule(run: StopRuleInput): boolean {
  if (run.state !== "running") return false;
  const failures = [...run.recent].filter((r) => r === "f").length;
  const needed = Math.min(MIN_RESULTS, Math.max(1, run.expected - run.skipped));
  return run.recent.length >= needed && failures / run.recent.length > run.threshold;
}

/**
 * A run that stops itself pauses, says why, takes back what it queued but has not sent, and is
 * recorded as the system's doing — in the transaction that saw the reason, so not one more item
 * leaves after it. It takes that transaction bare, as a stage of the delivery pipeline does (ADR
 * 0030): the outcome writer (lib/deliveries/outcomes) calls it on the transaction it opened.
 */
export async function stopRecovery(tx: SqlOrTx, id: string, reason: "canary_failed" | "failure_ratio", facts: Record<string, unknown>): Promise<void> {
  await moveRun(tx, id, "stop", { stopReason: reason });
  await pullBackQueued(tx, id);
  await recordAuditEvent({ sql: tx, actor: SYSTEM }, { action: "recovery.paused", targetType: "recovery", targetId: id, data: { stop_reason: reason, ...facts } });
  await raiseRecoveryAlert({ ctx: { sql: tx }, id, kind: "recovery.paused", data: { stop_reason: reason } });
}

/** recovery.paused and recovery.finished, raised in the transaction that made the change (`ctx.sql`). */
export async function raiseRecoveryAlert({
  ctx,
  id,
  kind,
  data = {},
}: {
  ctx: Pick<Ctx, "sql">;
  id: string;
  kind: "recovery.paused" | "recovery.finished";
  data?: Record<string, unknown>;
}) {
  const { sql: tx } = ctx;
  const [run] = await tx<{ consumer_id: string; endpoint_id: string | null; state: string; expected: number; succeeded: number; failed: number; skipped: number }[]>`
    select consumer_id, endpoint_id, state, expected, succeeded, failed, skipped from recoveries where id = ${id}`;
  if (!run) return;
  const { consumer_id, endpoint_id, ...counts } = run;
  await raiseAlerts(ctx, [{ kind, endpointId: endpoint_id, consumerId: consumer_id, data: { recovery_id: id, ...counts, ...data } }]);
}
