import { inTransaction, type Ctx } from "../context";
import { ACTIVE_RECOVERY_STATES } from "../db/schema";
import { ConflictError } from "../errors";
import { finishCreate, insertRun } from "./create-recovery";
import { findRecoveryRow, nameRecoveries } from "./queries";
import type { RetryFailedInput } from "./schemas";

/**
 * A new run over a finished run's failed items, in their order: the same scope (marked `retry_of`),
 * its own rate and canary. A run still active owns its items, so it must end first.
 */
export async function retryFailedItems({ ctx, id, input }: { ctx: Ctx; id: string; input: RetryFailedInput }) {
  const source = await findRecoveryRow(ctx, id);
  if (ACTIVE_RECOVERY_STATES.includes(source.state)) {
    throw new ConflictError("invalid_state", `The recovery is ${source.state}; its failed items can be retried once it is completed or canceled.`);
  }
  const row = await inTransaction(ctx, async (tx) => {
    const run = await insertRun({
      ctx: tx,
      run: {
        consumerId: source.consumerId,
        endpointId: source.endpointId,
        scope: { ...source.scope, retry_of: source.id },
        options: {
          ...source.options,
          rate_per_second: input.rate_per_second ?? source.options.rate_per_second,
          canary: input.canary ?? source.options.canary,
        },
      },
    });
    await tx.sql`
      insert into recovery_items (recovery_id, seq, message_id, endpoint_id, delivery_id, consumer_id)
      select ${run.id}, row_number() over (order by i.seq), i.message_id, i.endpoint_id, i.delivery_id, ${source.consumerId}
      from recovery_items i
      where i.recovery_id = ${source.id} and i.outcome = 'failed'
        and not exists (
          select 1 from recovery_items o join recoveries r on r.id = o.recovery_id
          where o.message_id = i.message_id and o.endpoint_id = i.endpoint_id and r.state = any(${[...ACTIVE_RECOVERY_STATES]}))`;
    return finishCreate({ ctx: tx, id: run.id });
  });
  return (await nameRecoveries(ctx, [row]))(row);
}
