import type { z } from "zod";
import { inTransaction, type Ctx } from "../context";
import { type SqlOrTx } from "../db/client";
import type { RecoveryOptions, RecoveryScope } from "../db/schema";
import { ConflictError } from "../errors";
import { newId } from "../ids";
import { wakeRecoveries } from "../jobs";
import { recordAuditEvent } from "../audit/record-audit-event";
import { findConsumer } from "../consumers/queries";
import { findEndpointRow } from "../endpoints/queries";
import { POLLING_KIND } from "../destinations";
import { findRecoveryRow, nameRecoveries, type RecoveryRow } from "./queries";
import type { CreateRecoveryInput, RecoveryDryRun } from "./schemas";
import { activeEndpointIds, scopeCandidates, type ScopeTarget } from "./scope";
import { countSelection, selectItems } from "./select-items";

export type RecoveryTarget = { endpoint: string } | { consumer: string };

export type DryRun = z.infer<typeof RecoveryDryRun>;

export const DEFAULT_CANARY = 10;
export const DEFAULT_STOP_RATIO = 0.5;
const SAMPLE_SIZE = 20;

/**
 * POST /endpoints/{id}/recover and /consumers/{consumer}/recover. A dry run counts the scope and
 * writes nothing; otherwise the run is made with the count of items it takes (at most
 * RECOVERY_MAX_ITEMS, the oldest), its first RECOVERY_SELECT_BATCH items are frozen, one per
 * delivery, and the feeder is woken: the worker freezes the rest, a batch a tick (select-items.ts),
 * then starts it. Runs of one consumer are created and selected one batch at a time, so two
 * overlapping runs cannot both take the same delivery.
 */
export async function createRecovery({ ctx, target, input }: { ctx: Ctx; target: RecoveryTarget; input: CreateRecoveryInput }) {
  const { sql } = ctx;
  const resolved = await resolveTarget(ctx, sql, target);
  // The database's clock, as every other time of the product.
  const [clock] = await sql<{ now: Date }[]>`select now()`;
  const until = input.until ?? clock!.now;
  const scope: RecoveryScope = {
    since: input.since.toISOString(),
    until: until.toISOString(),
    event_types: input.event_types ?? null,
    statuses: input.statuses ?? ["failed"],
    include_never_attempted: input.include_never_attempted ?? false,
  };
  if (input.dry_run) return { dryRun: await previewScope(sql, resolved, scope) };
  if ("endpoint" in target && resolved.state !== "active") {
    throw new ConflictError("endpoint_not_active", `The endpoint is ${resolved.state.replace("_", " ")}; enable it before recovering to it.`);
  }
  const options: RecoveryOptions = {
    rate_per_second: input.rate_per_second ?? ctx.config.RECOVERY_DEFAULT_RATE,
    canary: input.canary ?? DEFAULT_CANARY,
    stop_if_failure_ratio: input.stop_if_failure_ratio ?? DEFAULT_STOP_RATIO,
  };
  const itemLimit = ctx.config.RECOVERY_MAX_ITEMS;
  const row = await inTransaction(ctx, async (tx) => {
    const run = await insertRun({
      ctx: tx,
      run: { consumerId: resolved.consumerId, endpointId: "endpoint" in target ? resolved.endpointIds[0]! : null, scope, options },
    });
    // Counted here (reading at most the cap and one more); frozen a batch at a time
    // (select-items.ts): the first here, so a run of up to a batch is whole at once, exactly as
    // the scope stood, and the rest by the worker.
    const selection = await countSelection(tx.sql, resolved, { scope }, itemLimit);
    await tx.sql`
      update recoveries set selecting = true, item_limit = ${itemLimit}, expected = ${selection.expected}, capped = ${selection.capped}
      where id = ${run.id}`;
    await selectItems(tx.sql, await findRecoveryRow(tx, run.id), ctx.config.RECOVERY_SELECT_BATCH);
    return finishCreate({ ctx: tx, id: run.id });
  });
  return { recovery: (await nameRecoveries(ctx, [row]))(row) };
}

/** The run's row, before its items; taken under the consumer's creation lock. */
export async function insertRun({
  ctx,
  run,
}: {
  ctx: Ctx;
  run: { consumerId: string; endpointId: string | null; scope: RecoveryScope; options: RecoveryOptions };
}): Promise<{ id: string }> {
  const { sql: tx } = ctx;
  await tx`select pg_advisory_xact_lock(hashtext(${`recovery:${run.consumerId}`}))`;
  const id = newId("recovery");
  const { actor } = ctx;
  await tx`
    insert into recoveries (id, consumer_id, endpoint_id, state, scope, options, created_by_type, created_by_id)
    values (${id}, ${run.consumerId}, ${run.endpointId}, 'planned', ${tx.json(run.scope as never)}, ${tx.json(run.options as never)},
            ${actor.type}, ${actor.type === "system" ? null : actor.id})`;
  return { id };
}

/** Counts the frozen items (a run the worker selects has its count), records who started the run, and wakes the feeder. */
export async function finishCreate({ ctx, id }: { ctx: Ctx; id: string }): Promise<RecoveryRow> {
  const { sql: tx } = ctx;
  await tx`update recoveries set expected = (select count(*) from recovery_items where recovery_id = ${id}) where id = ${id} and not selecting`;
  const row = await findRecoveryRow(ctx, id);
  await recordAuditEvent(ctx, { action: "recovery.started", targetType: "recovery", targetId: id, data: { expected: row.expected } });
  await wakeRecoveries(tx);
  return row;
}

async function resolveTarget(ctx: Ctx, sql: SqlOrTx, target: RecoveryTarget): Promise<ScopeTarget & { state: string }> {
  if ("endpoint" in target) {
    const endpoint = await findEndpointRow(ctx, target.endpoint);
    if (endpoint.destination === POLLING_KIND) throw new ConflictError("polling_endpoint", "A polling endpoint is read by its consumer, who goes back by polling from an earlier cursor: nothing is sent to it to recover.");
    return { consumerId: endpoint.consumerId, endpointIds: [endpoint.id], state: endpoint.state };
  }
  const consumer = await findConsumer(ctx, target.consumer);
  // A consumer-wide run covers the endpoints that can receive now.
  return { consumerId: consumer.id, endpointIds: await activeEndpointIds(sql, consumer.id), state: "active" };
}

async function previewScope(sql: SqlOrTx, target: ScopeTarget, scope: RecoveryScope): Promise<DryRun> {
  const [row] = await sql<{ expected: number; held: number; by_endpoint: DryRun["by_endpoint"]; sample: DryRun["sample"] }[]>`
    with c as (${scopeCandidates(sql, target, scope)})
    select (select count(*)::int from c where not held) as expected,
           (select count(*)::int from c where held) as held,
           (select coalesce(json_agg(x order by x.endpoint_id), '[]') from (
              select endpoint_id, count(*)::int as expected from c where not held group by endpoint_id) x) as by_endpoint,
           (select coalesce(json_agg(s), '[]') from (
              select message_id, endpoint_id, delivery_id, event_type, status, created_at from c where not held
              order by created_at, message_id, endpoint_id limit ${SAMPLE_SIZE}) s) as sample`;
  if (!row) throw new Error("the dry run returned no row");
  return {
    expected: row.expected,
    by_endpoint: row.by_endpoint,
    already_in_recovery: row.held,
    sample: row.sample.map((s) => ({ ...s, created_at: new Date(s.created_at).toISOString() })),
  };
}
