import type { SqlOrTx } from "../db/client";
import type { SelectionCursor } from "../db/schema";
import type { RecoveryRow } from "./queries";
import { activeEndpointIds, scopeCandidates, type ScopeTarget } from "./scope";

/**
 * The statement for the scope's candidates a new run may take, after `after`, oldest message
 * first, at most `limit` (shared by the count at creation and each batch of the freeze).
 */
function freeCandidates(sql: SqlOrTx, target: ScopeTarget, run: Pick<RecoveryRow, "scope">, after: SelectionCursor | null, limit: number) {
  const position = after
    ? sql`and (c.created_at, c.message_id, c.endpoint_id) > (${after.created_at}::timestamptz, ${after.message_id}, ${after.endpoint_id})`
    : sql``;
  return sql`
    select c.message_id, c.endpoint_id, c.delivery_id, c.created_at
    from (${scopeCandidates(sql, target, run.scope, after)}) c
    where not c.held ${position}
    order by c.created_at, c.message_id, c.endpoint_id
    limit ${limit}`;
}

/**
 * How many items a new run over this scope would take now, at most `itemLimit`, and whether the
 * scope holds more (the cap cut it). Reads at most `itemLimit + 1` candidates.
 */
export async function countSelection(sql: SqlOrTx, target: ScopeTarget, run: Pick<RecoveryRow, "scope">, itemLimit: number) {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from (${freeCandidates(sql, target, run, null, itemLimit + 1)}) x`;
  return { expected: Math.min(row!.n, itemLimit), capped: row!.n > itemLimit };
}

/**
 * Freezes the next batch of a selecting run's items (at most `batch`, RECOVERY_SELECT_BATCH, and
 * never past its item_limit), in the run's transaction (the creating one, or the feeder's under the
 * run's row lock), and under its consumer's creation lock
 * (create-recovery.ts insertRun), so two runs of one consumer never both take a delivery. When the
 * scope is exhausted or the cap is reached, the selection ends: `expected` becomes the items frozen
 * and `capped` whether the scope held more.
 */
export async function selectItems(tx: SqlOrTx, run: RecoveryRow, batch: number): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtext(${`recovery:${run.consumerId}`}))`;
  // A consumer-wide run's endpoints as they are now: one disabled meanwhile gets no more items
  // (its items would be skipped as endpoint_disabled anyway).
  const target: ScopeTarget = { consumerId: run.consumerId, endpointIds: run.endpointId ? [run.endpointId] : await activeEndpointIds(tx, run.consumerId) };
  const [frozen] = await tx<{ n: number }[]>`select coalesce(max(seq), 0)::int as n from recovery_items where recovery_id = ${run.id}`;
  const itemLimit = run.itemLimit ?? Number.MAX_SAFE_INTEGER;
  const wanted = Math.min(batch, itemLimit - frozen!.n);
  const [got] =
    wanted <= 0
      ? [{ n: 0, last: null }]
      : await tx<{ n: number; last: SelectionCursor | null }[]>`
          with picked as (${freeCandidates(tx, target, run, run.selectAfter, wanted)}),
          ins as (
            insert into recovery_items (recovery_id, seq, message_id, endpoint_id, delivery_id, consumer_id)
            select ${run.id}, ${frozen!.n} + row_number() over (order by created_at, message_id, endpoint_id), message_id, endpoint_id, delivery_id, ${run.consumerId}
            from picked
            returning 1
          )
          select (select count(*)::int from ins) as n,
                 -- The cursor in SQL's own text, microseconds and all: a JavaScript Date would round them off.
                 (select jsonb_build_object('created_at', created_at, 'message_id', message_id, 'endpoint_id', endpoint_id)
                  from picked order by created_at desc, message_id desc, endpoint_id desc limit 1) as last`;
  const total = frozen!.n + got!.n;
  const after = got!.last ?? run.selectAfter;
  if (got!.n === wanted && total < itemLimit) {
    await tx`update recoveries set select_after = ${after ? tx.json(after as never) : null}, updated_at = now() where id = ${run.id}`;
    return;
  }
  // Done: the scope ran out, or the cap is reached — then one more candidate says it was cut.
  const capped = total >= itemLimit && (await tx`${freeCandidates(tx, target, run, after, 1)}`).length > 0;
  await tx`
    update recoveries set selecting = false, select_after = null, expected = ${total}, capped = ${capped}, updated_at = now()
    where id = ${run.id}`;
}
