import { recordAuditEvent } from "../audit/record-audit-event";
import { consumerScope, inTransaction, type Ctx } from "../context";
import { NotFoundError } from "../errors";
import { wakePurge } from "../jobs";
import { expungeLocked } from "./expunge-payload";

/** Messages expunged per transaction. */
export const PURGE_BATCH = 500;
/** How long the request that starts a purge spends on it before the worker takes over. */
const INLINE_MS = 2_000;

const STARTED = "consumer.payloads_purge_started";
const FINISHED = "consumer.payloads_purged";
const FAILED = "consumer.payloads_purge_failed";

/** What two runners of one purge (its batches, and its giving up) take turns on. */
const purgeLock = (purgeId: string) => `${FINISHED}:${purgeId}`;

/**
 * Every payload of one consumer's messages expunged (the Svix API's message.expungeAllContents), as
 * DELETE /messages/{id}/payload expunges one: the messages made before it began, in batches of
 * PURGE_BATCH, each its own transaction. A purge is its audit events (ADR 0042), no table:
 * `consumer.payloads_purge_started` (whose id is the purge's), then `consumer.payloads_purged` with
 * the count — or `consumer.payloads_purge_failed` once its job has failed its last attempt.
 */
export type PayloadPurge = { id: string; consumerId: string; status: "running" | "finished" | "failed"; messages: number | null; updatedAt: Date };

/**
 * Starts a purge and runs its first batch in the request: a consumer with few messages is purged
 * when this answers; the rest goes on in the worker's `purge_payloads` job.
 */
export async function startPayloadPurge({ ctx, consumerId }: { ctx: Ctx; consumerId: string }): Promise<PayloadPurge> {
  const id = await inTransaction(ctx, (tx) => recordAuditEvent(tx, { action: STARTED, targetType: "consumer", targetId: consumerId }));
  const { done, after } = await purgePayloads(ctx, { purgeId: id, deadline: Date.now() + INLINE_MS, after: null });
  if (!done) await wakePurge(ctx.sql, id, after);
  return findPayloadPurge(ctx, id);
}

/** Where a purge has got to: the last message it expunged, in (created_at, id) order. */
export type PurgeCursor = { at: string; id: string } | null;

/**
 * Batches of a purge, oldest message first from `after`, until it is done or `deadline` (epoch ms)
 * has passed — one batch at least. Each batch takes the purge's advisory lock first, so two runners
 * of one purge take turns and it finishes once.
 */
export async function purgePayloads(
  ctx: Ctx,
  { purgeId, deadline, after: start }: { purgeId: string; deadline: number; after: PurgeCursor },
): Promise<{ done: boolean; after: PurgeCursor }> {
  let after = start;
  for (;;) {
    const done = await inTransaction(ctx, async (tx) => {
      const { sql } = tx;
      await sql`select pg_advisory_xact_lock(hashtext(${purgeLock(purgeId)}))`;
      const [purge] = await sql<{ consumer_id: string; started_at: Date; finished: boolean }[]>`
        select s.target_id as consumer_id, s.created_at as started_at,
               exists (select 1 from audit_events f where f.target_id = s.target_id and f.action = ${FINISHED} and f.data->>'purge_id' = s.id) as finished
        from audit_events s where s.id = ${purgeId} and s.action = ${STARTED}`;
      if (!purge || purge.finished) return true;
      const batch = await sql<{ id: string; at: string }[]>`
        select id, created_at::text as at from messages
        where consumer_id = ${purge.consumer_id} and created_at <= ${purge.started_at} and payload_expunged_at is null
          ${after ? sql`and (created_at, id) > (${after.at}::timestamptz, ${after.id})` : sql``}
        order by created_at, id limit ${PURGE_BATCH}
        for update`;
      const last = batch.at(-1);
      if (last) {
        await expungeLocked(sql, batch.map((m) => m.id));
        after = { at: last.at, id: last.id };
        return false;
      }
      const [{ n } = { n: 0 }] = await sql<{ n: number }[]>`
        select count(*)::int as n from messages
        where consumer_id = ${purge.consumer_id} and created_at <= ${purge.started_at} and payload_expunged_at >= ${purge.started_at}`;
      await recordAuditEvent(tx, { action: FINISHED, targetType: "consumer", targetId: purge.consumer_id, data: { purge_id: purgeId, messages: n } });
      return true;
    });
    if (done) return { done: true, after };
    if (Date.now() >= deadline) return { done: false, after };
  }
}

/**
 * A purge its job gave up on (the job's last attempt failed; worker/tasks/purge-payloads.ts): it
 * reads `failed` from now on instead of `running` for ever — unless it finished meanwhile, or
 * never began. Expunging again (a new purge) finishes the work.
 */
export async function failPayloadPurge({ ctx, purgeId }: { ctx: Ctx; purgeId: string }): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    await tx.sql`select pg_advisory_xact_lock(hashtext(${purgeLock(purgeId)}))`;
    const [purge] = await tx.sql<{ consumer_id: string; ended: boolean }[]>`
      select s.target_id as consumer_id,
             exists (select 1 from audit_events e where e.target_id = s.target_id and e.action in (${FINISHED}, ${FAILED}) and e.data->>'purge_id' = s.id) as ended
      from audit_events s where s.id = ${purgeId} and s.action = ${STARTED}`;
    if (!purge || purge.ended) return;
    await recordAuditEvent(tx, { action: FAILED, targetType: "consumer", targetId: purge.consumer_id, data: { purge_id: purgeId } });
  });
}

/** A purge by its id (the caller's own consumer's, for a portal session). */
export async function findPayloadPurge(ctx: Ctx, id: string): Promise<PayloadPurge> {
  const scope = consumerScope(ctx);
  const { sql } = ctx;
  // Its end: finished, or failed (a purge that finished after all reads finished).
  const [row] = await sql<{ consumer_id: string; started_at: Date; ended: string | null; ended_at: Date | null; messages: number | null }[]>`
    select s.target_id as consumer_id, s.created_at as started_at, e.action as ended, e.created_at as ended_at, (e.data->>'messages')::int as messages
    from audit_events s
    left join lateral (
      select action, created_at, data from audit_events e
      where e.target_id = s.target_id and e.action in (${FINISHED}, ${FAILED}) and e.data->>'purge_id' = s.id
      order by e.action = ${FINISHED} desc limit 1
    ) e on true
    where s.id = ${id} and s.action = ${STARTED} ${scope ? sql`and s.target_id = ${scope}` : sql``}`;
  if (!row) throw new NotFoundError("background task", id);
  return {
    id,
    consumerId: row.consumer_id,
    status: row.ended === FINISHED ? "finished" : row.ended === FAILED ? "failed" : "running",
    messages: row.messages,
    updatedAt: row.ended_at ?? row.started_at,
  };
}
