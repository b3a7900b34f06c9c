import { inTransaction, type Ctx } from "../context";
import { type SqlOrTx } from "../db/client";
import type { RecoveryState } from "../db/schema";
import { ConflictError } from "../errors";
import { recordAuditEvent } from "../audit/record-audit-event";
import { findRecoveryRow, nameRecoveries } from "./queries";
import { moveRun, RECOVERY_TRANSITIONS } from "./transitions";

/**
 * A person's move of a run (pause, resume, cancel): within the actor's scope, under the run's row
 * lock, allowed only from the states RECOVERY_TRANSITIONS says, recorded as an audit event in the
 * same transaction. 409 `invalid_state` otherwise. `before` runs before the move (taking back queued
 * items), `after` after it (waking the feeder).
 */
export async function moveRecovery({
  ctx,
  id,
  ...move
}: {
  ctx: Ctx;
  id: string;
  move: "pause" | "resume" | "cancel";
  done: "paused" | "resumed" | "canceled";
  before?: (tx: SqlOrTx) => Promise<unknown>;
  after?: (tx: SqlOrTx) => Promise<unknown>;
}) {
  const { from } = RECOVERY_TRANSITIONS[move.move];
  const row = await inTransaction(ctx, async (tx) => {
    const sql = tx.sql;
    // Within the actor's scope (404) and under the row's lock, in one read.
    const run = await findRecoveryRow(tx, id, { lock: true });
    if (!(from as readonly RecoveryState[]).includes(run.state)) {
      throw new ConflictError("invalid_state", `The recovery is ${run.state}; it can be ${move.done} only when ${from.join(" or ")}.`);
    }
    await move.before?.(sql);
    await moveRun(sql, id, move.move);
    await move.after?.(sql);
    await recordAuditEvent(tx, { action: `recovery.${move.done}`, targetType: "recovery", targetId: id, data: { from: run.state } });
    return findRecoveryRow(tx, id);
  });
  return (await nameRecoveries(ctx, [row]))(row);
}

/**
 * Takes a run's items back out of the queue, unsent, when the run stops: queued items whose
 * attempt has not started (their row is not under a live lease) return to pending. An attempt in
 * flight finishes and its outcome is recorded as usual.
 */
export async function pullBackQueued(tx: SqlOrTx, id: string): Promise<void> {
  await tx`
    with back as (
      delete from delivery_queue where recovery_id = ${id} and kind = webhook_admin_queue_kind('recovery') and (lease_token is null or next_attempt_at <= now())
      returning delivery_id
    ),
    items as (
      update recovery_items i set outcome = 'pending', updated_at = now()
      from back where i.recovery_id = ${id} and i.delivery_id = back.delivery_id and i.outcome = 'queued'
      returning 1
    )
    update recoveries set queued = queued - (select count(*) from items) where id = ${id}`;
}
