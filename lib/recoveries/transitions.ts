import type { PendingQuery, Row } from "postgres";
import type { SqlOrTx } from "../db/client";
import type { RecoveryState } from "../db/schema";

type Sets = (sql: SqlOrTx, facts: { stopReason?: string }) => PendingQuery<Row[]>;

/**
 * Every way a recovery run changes state: the move, the states it may leave, the state it enters
 * and what else that sets. `recoveries.state` changes nowhere else (moveRun), so the life of a run
 * reads here:
 *
 *   planned ─start─▶ running ─complete─▶ completed
 *   planned ─start_canary─▶ canary ─pass_canary─▶ running
 *   planned|canary|running ─pause / stop─▶ paused ─resume─▶ running
 *   planned|canary|running|paused ─cancel─▶ canceled
 */
export const RECOVERY_TRANSITIONS = {
  /** The feeder's first tick, without a canary: paced from an eighth of its rate. */
  start: { from: ["planned"], to: "running", sets: (sql) => sql`started_at = now(), tokens = 0, tokens_at = now(), ramp_started_at = now()` },
  /** The feeder's first tick, with a canary: its first items go alone. */
  start_canary: { from: ["planned"], to: "canary", sets: (sql) => sql`started_at = now(), tokens = 0, tokens_at = now(), ramp_started_at = null` },
  /** The canary's items came back good enough: the rest follow, ramping up. */
  pass_canary: { from: ["canary"], to: "running", sets: (sql) => sql`ramp_started_at = now()` },
  /** Every item has its outcome. */
  complete: { from: ["canary", "running"], to: "completed", sets: (sql) => sql`finished_at = now()` },
  /** A person pauses it. */
  pause: { from: ["planned", "canary", "running"], to: "paused", sets: (sql) => sql`stop_reason = null` },
  /** It stops itself: its canary failed, or its failures went over the ratio. */
  stop: { from: ["canary", "running"], to: "paused", sets: (sql, facts) => sql`stop_reason = ${facts.stopReason ?? null}` },
  /** A person resumes it: running again, its rate ramping up from an eighth and its failure window empty. */
  resume: {
    from: ["paused"],
    to: "running",
    sets: (sql) => sql`stop_reason = null, recent = '', tokens = 0, tokens_at = now(), ramp_started_at = now(), started_at = coalesce(started_at, now())`,
  },
  /** Ended for good, by a person or with its consumer's erasure. */
  cancel: { from: ["planned", "canary", "running", "paused"], to: "canceled", sets: (sql) => sql`finished_at = coalesce(finished_at, now())` },
} as const satisfies Record<string, { from: readonly RecoveryState[]; to: RecoveryState; sets: Sets }>;

export type RecoveryMove = keyof typeof RECOVERY_TRANSITIONS;

/**
 * Makes `move` on run `id` (or on every run of a consumer whose state allows it: its erasure) if its
 * state allows it; false (nothing written) if it does not. The caller holds the run's row lock when
 * it must know the state first (moveRecovery, the feeder).
 */
export async function moveRun(sql: SqlOrTx, run: string | { consumerId: string }, move: RecoveryMove, facts: { stopReason?: string } = {}): Promise<boolean> {
  const t = RECOVERY_TRANSITIONS[move];
  const moved = await sql`
    update recoveries set state = ${t.to}, ${t.sets(sql, facts)}, updated_at = now()
    where ${typeof run === "string" ? sql`id = ${run}` : sql`consumer_id = ${run.consumerId}`} and state = any(${[...t.from]}::text[])
    returning id`;
  return moved.length > 0;
}
