import { inTransaction, type Ctx } from "../context";
import { deliveriesOfMessagesSql } from "../db/deliveries-of-messages";
import { moveRun } from "../recoveries/transitions";
import type { PendingQuery, Row } from "postgres";
import type { SqlOrTx } from "../db/client";
import { addCounts, totalRows, type Counts } from "./counts";

/** Messages erased per transaction (with their deliveries, queue rows and attempts). */
export const ERASURE_MESSAGE_BATCH = 1_000;
/** Rows of any other table erased per statement. */
export const ERASURE_ROW_BATCH = 5_000;

type Erasure = { id: string; consumer_id: string; endpoint_ids: string[]; terms: string[]; counts: Counts; messages_total: number };
/** One batch of a step: the rows it found (compared with its size: fewer means it is done), what it removed, endpoints it learned of. */
type Batch = { seen: number; removed: Counts; endpointIds?: string[] };
type StepBatch = Batch & { cursor?: string };
type Step = { name: string; size: number; run: (sql: SqlOrTx, e: Erasure, size: number, cursor: { at: string | null }) => Promise<StepBatch> };

/**
 * The erasure's steps, in order. Each batch is one transaction that first locks the erasure's row,
 * so two runners of one erasure (its job and a stranded request, or two jobs) take turns, and its
 * counts move with the rows they count. Each step is idempotent: what it deletes, it finds by the
 * consumer's id or its endpoints' ids, so a run that stopped anywhere simply goes on.
 */
const STEPS: Step[] = [
  {
    // Its recovery runs stop feeding first (endpoint rows disabled already stop their sends).
    name: "recoveries_stopped",
    size: Number.POSITIVE_INFINITY,
    run: async (sql, e): Promise<StepBatch> => {
      await moveRun(sql, { consumerId: e.consumer_id }, "cancel");
      return { seen: 0, removed: {} };
    },
  },
  {
    // Endpoints deleted before the erasure began: their rows are gone, but the audit events about
    // them name the consumer (endpoint.created, and any change made through its portal). Learned
    // here, their ids find the kept Svix answers and the audit rows about them (below). One walk of
    // the audit log by id.
    name: "endpoints_deleted_earlier",
    size: ERASURE_ROW_BATCH,
    run: async (sql, e, size, cursor): Promise<StepBatch> => {
      const rows = await sql<{ id: string; target_id: string }[]>`
        select id, target_id from audit_events
        where target_type = 'endpoint' and data->>'consumer_id' = ${e.consumer_id} ${cursor.at === null ? sql`` : sql`and id > ${cursor.at}`}
        order by id limit ${size}`;
      const last = rows.at(-1);
      return { seen: rows.length, removed: {}, endpointIds: rows.map((r) => r.target_id), ...(last ? { cursor: last.id } : {}) };
    },
  },
  {
    // Messages, oldest first, each with its deliveries' queue rows, deliveries (failed_deliveries
    // with them) and attempts — locked as the worker locks them: queue rows, then deliveries.
    name: "messages",
    size: ERASURE_MESSAGE_BATCH,
    run: async (sql, e, size): Promise<StepBatch> => {
      const ids = (
        await sql<{ id: string }[]>`select id from messages where consumer_id = ${e.consumer_id} order by created_at, id limit ${size}`
      ).map((m) => m.id);
      if (ids.length === 0) return { seen: 0, removed: {} };
      const ofMessages = deliveriesOfMessagesSql(sql, ids);
      await sql`
        select 1 from delivery_queue where delivery_id in (select id from deliveries where ${ofMessages})
        order by delivery_id, kind for update`;
      const deliveryIds = (await sql<{ id: string }[]>`select id from deliveries where ${ofMessages} order by id for update`).map((d) => d.id);
      const attempts = await sql<{ endpoint_id: string }[]>`delete from attempts where message_id = any(${ids}) returning endpoint_id`;
      const failed = await sql`delete from failed_deliveries where delivery_id = any(${deliveryIds})`;
      const queue = await sql`delete from delivery_queue where delivery_id = any(${deliveryIds})`;
      const deliveries = await sql`delete from deliveries where id = any(${deliveryIds})`;
      const messages = await sql`delete from messages where id = any(${ids})`;
      // The Svix API's kept answers to the POSTs that made them hold their payloads.
      const answers = await sql`delete from api_idempotency where message_id = any(${ids})`;
      return {
        seen: ids.length,
        removed: {
          messages: messages.count,
          deliveries: deliveries.count,
          delivery_queue: queue.count,
          failed_deliveries: failed.count,
          attempts: attempts.length,
          api_idempotency: answers.count,
        },
        endpointIds: attempts.map((a) => a.endpoint_id),
      };
    },
  },
  {
    // Attempts not reached through a message (an outcome written late) — by the consumer's id.
    name: "attempts",
    size: ERASURE_ROW_BATCH,
    run: async (sql, e, size): Promise<StepBatch> => {
      const gone = await sql<{ endpoint_id: string }[]>`
        delete from attempts where id in (select id from attempts where consumer_id = ${e.consumer_id} limit ${size}) returning endpoint_id`;
      return { seen: gone.length, removed: { attempts: gone.length }, endpointIds: gone.map((a) => a.endpoint_id) };
    },
  },
  {
    name: "message_event_ids",
    size: ERASURE_ROW_BATCH,
    run: async (sql, e, size): Promise<StepBatch> => {
      const gone = await sql`
        delete from message_event_ids where (consumer_id, event_id) in (
          select consumer_id, event_id from message_event_ids where consumer_id = ${e.consumer_id} limit ${size})`;
      return { seen: gone.count, removed: { message_event_ids: gone.count } };
    },
  },
  {
    // POST /messages's idempotency keys answer with the message, which names the consumer: one walk
    // of the key index (the table holds IDEMPOTENCY_TTL of keys), going on where the last batch stopped.
    name: "idempotency_keys",
    size: ERASURE_ROW_BATCH,
    run: (sql, e, size, cursor) => deleteWalking(sql, "idempotency_keys", "key", sql`response->>'consumer_id' = ${e.consumer_id}`, size, cursor),
  },
  {
    // The Svix API's stored answers (replayed for an Idempotency-Key) that name the consumer by its
    // id, uid or Svix id, or one of its endpoints by its id — an endpoint's create answer holds its
    // URL, description and metadata and names no consumer; with the endpoints deleted earlier
    // (learned above), a create whose endpoint is gone is found too. A message's answer names none
    // of them: it went with its message (above), or, kept before migration 0022 gave it its
    // message's id, expires with IDEMPOTENCY_TTL.
    name: "api_idempotency",
    size: ERASURE_ROW_BATCH,
    run: (sql, e, size, cursor) => {
      const patterns = [e.consumer_id, ...e.terms, ...e.endpoint_ids].map((term) => `%${JSON.stringify(term).replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      return deleteWalking(sql, "api_idempotency", "key_hash", sql`body like any(${patterns})`, size, cursor);
    },
  },
  {
    name: "recovery_items",
    size: ERASURE_ROW_BATCH,
    run: async (sql, e, size): Promise<StepBatch> => {
      const gone = await sql`
        delete from recovery_items where (recovery_id, seq) in (
          select i.recovery_id, i.seq from recovery_items i
          where i.recovery_id in (select id from recoveries where consumer_id = ${e.consumer_id}) limit ${size})`;
      return { seen: gone.count, removed: { recovery_items: gone.count } };
    },
  },
  {
    name: "recoveries",
    size: ERASURE_ROW_BATCH,
    run: async (sql, e, size): Promise<StepBatch> => {
      const gone = await sql`delete from recoveries where id in (select id from recoveries where consumer_id = ${e.consumer_id} limit ${size})`;
      return { seen: gone.count, removed: { recoveries: gone.count } };
    },
  },
  {
    // The alert log about its endpoints (and so every mail to its alert emails), by endpoint.
    name: "alerts_by_endpoint",
    size: ERASURE_ROW_BATCH,
    run: async (sql, e, size): Promise<StepBatch> => {
      const gone = await sql`delete from alerts where id in (select id from alerts where endpoint_id = any(${e.endpoint_ids}) limit ${size})`;
      return { seen: gone.count, removed: { alerts: gone.count } };
    },
  },
  {
    // …and any naming the consumer alone (one walk of the log, by id).
    name: "alerts_by_consumer",
    size: ERASURE_ROW_BATCH,
    run: (sql, e, size, cursor) => deleteWalking(sql, "alerts", "id", sql`consumer_id = ${e.consumer_id}`, size, cursor),
  },
  {
    // Its rollup series: the consumer's and each endpoint's (the all-consumers series keeps the totals).
    name: "attempt_stats",
    size: ERASURE_ROW_BATCH,
    run: async (sql, e, size): Promise<StepBatch> => {
      const scopes = [e.consumer_id, ...e.endpoint_ids];
      const pending = await sql`delete from attempt_stats_pending where consumer_id = ${e.consumer_id} or endpoint_id = any(${e.endpoint_ids})`;
      const gone = await sql`
        delete from attempt_stats where (scope, bucket_seconds, t) in (
          select scope, bucket_seconds, t from attempt_stats where scope = any(${scopes}) limit ${size})`;
      return { seen: gone.count, removed: { attempt_stats: gone.count, attempt_stats_pending: pending.count } };
    },
  },
  {
    // Audit events keep that something happened, not the personal data some carried (an endpoint's
    // URL): their data is emptied. The consumer's creation and deletion keep theirs: its uid only.
    name: "audit_events",
    size: ERASURE_ROW_BATCH,
    run: async (sql, e, size): Promise<StepBatch> => {
      const targets = [e.consumer_id, ...e.endpoint_ids];
      const scrubbed = await sql`
        update audit_events set data = '{}'::jsonb where id in (
          select id from audit_events
          where target_id = any(${targets}) and data <> '{}'::jsonb and action not in ('consumer.created', 'consumer.deleted')
          limit ${size})`;
      return { seen: scrubbed.count, removed: { audit_events_scrubbed: scrubbed.count } };
    },
  },
  {
    // Its endpoints last (their signing secrets and alert windows with them): nothing refers to them now.
    name: "endpoints",
    size: ERASURE_ROW_BATCH,
    run: async (sql, e, size): Promise<StepBatch> => {
      const gone = await sql`delete from endpoints where id in (select id from endpoints where consumer_id = ${e.consumer_id} order by id limit ${size})`;
      return { seen: gone.count, removed: { endpoints: gone.count } };
    },
  },
];

/**
 * Deletes up to `size` rows of `table` that `where` picks and no index finds, walking its key
 * `column` on from where the last batch stopped: one pass over the table for the whole step.
 */
async function deleteWalking(sql: SqlOrTx, table: string, column: string, where: PendingQuery<Row[]>, size: number, cursor: { at: string | null }): Promise<StepBatch> {
  const gone = await sql<{ key: string }[]>`
    delete from ${sql(table)} where ${sql(column)} in (
      select ${sql(column)} from ${sql(table)} where ${where} ${cursor.at === null ? sql`` : sql`and ${sql(column)} > ${cursor.at}`}
      order by ${sql(column)} limit ${size})
    returning ${sql(column)} as key`;
  const last = gone.map((g) => g.key).sort().at(-1);
  return { seen: gone.length, removed: { [table]: gone.length }, ...(last === undefined ? {} : { cursor: last }) };
}

export type EraseResult = { state: "completed" } | { state: "running"; wakeAt: Date | null };

/**
 * Erases a consumer whose erasure startErasure began: every step in order, batch by batch, until
 * all are done or `deadline` (ms since the epoch) passes — then `running` with no wake time, to be
 * called again. A pass that began before the erasure settles (an attempt was in flight when it
 * started, whose outcome may still be written) ends `running` with its settle time; the pass after
 * it ends by deleting the consumer's row (portal links and sessions and event ids go with it) and
 * marking the erasure completed (the erasure's record is the proof; the audit log has
 * `consumer.deleted` from its start).
 */
export async function eraseConsumer(
  ctx: Ctx,
  { erasureId, deadline = Number.POSITIVE_INFINITY, batchScale = 1 }: { erasureId: string; deadline?: number; batchScale?: number },
): Promise<EraseResult> {
  const [head] = await ctx.sql<{ state: string; settled: boolean; settles_at: Date }[]>`
    select state, settles_at <= now() as settled, settles_at from erasures where id = ${erasureId}`;
  if (!head || head.state !== "running") return { state: "completed" };
  await countMessages(ctx, erasureId);
  for (const step of STEPS) {
    const size = Number.isFinite(step.size) ? Math.max(1, Math.floor(step.size * batchScale)) : step.size;
    const cursor: { at: string | null } = { at: null };
    for (;;) {
      const done = await inTransaction(ctx, async (tx) => {
        const erasure = await lockErasure(tx.sql, erasureId);
        if (!erasure) return null;
        const batch = await step.run(tx.sql, erasure, size, cursor);
        await saveProgress(tx.sql, erasure, batch);
        return batch;
      });
      if (!done) return { state: "completed" };
      if (done.cursor !== undefined) cursor.at = done.cursor;
      if (done.seen < size) break;
      if (Date.now() >= deadline) return { state: "running", wakeAt: null };
    }
  }
  if (!head.settled) return { state: "running", wakeAt: head.settles_at };
  await inTransaction(ctx, async (tx) => {
    const erasure = await lockErasure(tx.sql, erasureId);
    if (!erasure) return;
    const consumer = await tx.sql`delete from consumers where id = ${erasure.consumer_id}`;
    const counts = addCounts({ ...erasure.counts }, { consumers: consumer.count });
    await tx.sql`
      update erasures set state = 'completed', counts = ${tx.sql.json(counts)}, endpoint_ids = '{}'::text[], terms = '{}'::text[],
        finished_at = now(), updated_at = now()
      where id = ${erasureId}`;
  });
  return { state: "completed" };
}

async function lockErasure(sql: SqlOrTx, id: string): Promise<Erasure | null> {
  const [row] = await sql<Erasure[]>`
    select id, consumer_id, endpoint_ids, terms, counts, messages_total from erasures where id = ${id} and state = 'running' for update`;
  return row ?? null;
}

async function saveProgress(sql: SqlOrTx, erasure: Erasure, batch: Batch): Promise<void> {
  const learned = (batch.endpointIds ?? []).filter((id) => !erasure.endpoint_ids.includes(id));
  if (totalRows(batch.removed) === 0 && learned.length === 0) return;
  const counts = addCounts({ ...erasure.counts }, batch.removed);
  await sql`
    update erasures set counts = ${sql.json(counts)}, endpoint_ids = ${[...erasure.endpoint_ids, ...new Set(learned)]}::text[], updated_at = now()
    where id = ${erasure.id}`;
}

/** The consumer's messages as its background erasure begins (an inline one counted them already), for its progress. */
async function countMessages(ctx: Ctx, erasureId: string): Promise<void> {
  await ctx.sql`
    update erasures e set messages_total = (select count(*) from messages m where m.consumer_id = e.consumer_id)
    where e.id = ${erasureId} and e.state = 'running' and e.messages_total = 0 and not (e.counts ? 'messages')`;
}
