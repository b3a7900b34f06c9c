import { inTransaction, consumerScope, type Ctx } from "../context";
import { sha256Hex } from "../crypto/encryption";
import type { SqlOrTx } from "../db/client";
import { isForeignKeyViolation, isRetryableConflict } from "../db/errors";
import { retryOnConflict } from "../db/retry";
import { AppError, ConflictError, NotFoundError, PayloadTooLargeError } from "../errors";
import { newId } from "../ids";
import { notifyDue, notifyDueAfterCommit, wakeDeliveries } from "../jobs";
import { logger } from "../logger";
import { recordMessagesIngested } from "../metrics/web";
import { activeTraceparent, inSpan } from "../telemetry/tracing";
import type { CreateMessageInput, MessageAccepted } from "./schemas";

export type CreateMessageResult = { message: MessageAccepted; replayed: boolean };

/** One message to ingest, with the key that makes sending it again safe. */
export type IngestItem = { input: CreateMessageInput; idempotencyKey?: string };
/** Each item's outcome, in order: accepted (or replayed), or the error that refused it alone. */
export type IngestResult = CreateMessageResult | { error: AppError };

type Args = {
  ctx: Ctx;
  input: CreateMessageInput;
  idempotencyKey?: string;
  /** A test send: this one endpoint gets it, whatever event types it filters on, marked as a test. */
  onlyEndpointId?: string;
  /** Refuse an `event_id` the consumer used within EVENT_ID_TTL (409 `event_id_taken`): the Svix API's rule. */
  uniqueEventId?: boolean;
};

/**
 * Ingest. One transaction holds the message (its payload serialized once: the exact bytes every
 * attempt sends), one delivery per matching active endpoint, and the job that wakes a worker — so
 * a committed message is always delivered and a failed request leaves nothing behind.
 */
export async function createMessage(args: Args): Promise<CreateMessageResult> {
  const outcome = (
    await ingestMessages({
      ctx: args.ctx,
      items: [{ input: args.input, idempotencyKey: args.idempotencyKey }],
      onlyEndpointId: args.onlyEndpointId,
      uniqueEventId: args.uniqueEventId,
    })
  )[0]!;
  if ("error" in outcome) throw outcome.error;
  const result = outcome;
  if (!result.replayed) recordMessagesIngested(1);
  return result;
}

type IngestArgs = {
  ctx: Ctx;
  items: IngestItem[];
  onlyEndpointId?: string;
  uniqueEventId?: boolean;
  /**
   * How the wake-up for work due at once goes out: after the commit, coalesced per process (the
   * default; inside a caller's transaction, with it), or in the transaction, or not at all. Only
   * bench/notify-ab.ts passes the other two, to measure what a NOTIFY in the transaction costs.
   */
  notify?: "after-commit" | "in-transaction" | "none";
};

/**
 * Ingest of any number of messages (POST /messages is a batch of one, POST /messages/batch up to
 * 100): the valid ones in one transaction with one wake-up; an invalid one (payload too large,
 * consumer unknown, key used with another body) is refused alone and writes nothing.
 */
export function ingestMessages(args: IngestArgs): Promise<IngestResult[]> {
  // The `ingest` span (tracing on only), whose traceparent the messages keep for the attempts' links.
  return inSpan("ingest", { attributes: { "webhook_admin.messages": args.items.length } }, async (span) => {
    // An endpoint or a consumer deleted between the read of the targets and the insert fails the
    // insert's foreign key: read them again (a consumer gone is then a 404).
    const results = await retryOnConflict(() => ingest(args), (error) => isRetryableConflict(error) || isForeignKeyViolation(error));
    span?.setAttribute("webhook_admin.deliveries", results.reduce((n, r) => n + ("message" in r && !r.replayed ? r.message.deliveries : 0), 0));
    return results;
  });
}

/** An item that passed the checks made before the transaction, ready to be written. */
type Ready = {
  index: number;
  key?: string;
  message: MessageAccepted;
  payload: string;
  channels: string[] | null;
  tags: string[] | null;
  endpointIds: string[];
  /** What a replay of its key must match; only an item with a key has one. */
  requestHash?: string;
};

async function ingest({ ctx, items, onlyEndpointId, uniqueEventId, notify = "after-commit" }: IngestArgs): Promise<IngestResult[]> {
  const { config } = ctx;
  const results: (IngestResult | undefined)[] = new Array(items.length);
  const payloads = items.map((item) => JSON.stringify(item.input.payload));
  const sized: number[] = [];
  payloads.forEach((payload, i) => {
    if (Buffer.byteLength(payload) > config.MAX_PAYLOAD_BYTES) results[i] = { error: new PayloadTooLargeError(config.MAX_PAYLOAD_BYTES) };
    else sized.push(i);
  });
  if (sized.length === 0) return results as IngestResult[];
  const { sql } = ctx;
  const scope = consumerScope(ctx);

  // Each item's consumer and matching endpoints in one round trip, before the transaction opens.
  // The time comes from the database's clock, as the claim's does: a web host running ahead would
  // otherwise make new work look due later than it is.
  // A consumer is named by id or by uid, the id first. A VALUES list and two plain index lookups:
  // for one message as cheap as the single-message query this replaced (an unnest of arrays, or a
  // lateral subquery, measured slower per message: bench/results/2026-12-02-a2-batch-ingest.md).
  const list = sized
    .map((index, n) => {
      const { consumer, event_type, channels } = items[index]!.input;
      return sql`(${consumer}::text, ${event_type}::text, ${channels ?? null}::text[], ${n + 1}::int)`;
    })
    .reduce((all, row) => sql`${all}, ${row}`);
  const targets = await sql<{ ord: number; consumer_id: string | null; endpoint_id: string | null; now: Date }[]>`
    select i.ord, coalesce(by_id.id, by_uid.id) as consumer_id, e.id as endpoint_id, now()
    from (values ${list}) as i(consumer, event_type, channels, ord)
    left join consumers by_id on by_id.id = i.consumer and by_id.deleted_at is null ${scope ? sql`and by_id.id = ${scope}` : sql``}
    left join consumers by_uid on by_uid.uid = i.consumer and by_uid.deleted_at is null ${scope ? sql`and by_uid.id = ${scope}` : sql``}
    left join endpoints e on e.consumer_id = coalesce(by_id.id, by_uid.id) and e.state = 'active'
      and ${onlyEndpointId ? sql`e.id = ${onlyEndpointId}` : sql`(e.event_types is null or i.event_type = any(e.event_types)) and (e.channels is null or e.channels && i.channels)`}
    order by i.ord, e.id`;
  const now = targets[0]!.now;
  const found = new Map<number, { consumerId: string | null; endpointIds: string[] }>();
  for (const t of targets) {
    const index = sized[t.ord - 1]!;
    const entry = found.get(index) ?? { consumerId: t.consumer_id, endpointIds: [] };
    if (t.endpoint_id) entry.endpointIds.push(t.endpoint_id);
    found.set(index, entry);
  }

  const ready: Ready[] = [];
  for (const index of sized) {
    const { input, idempotencyKey } = items[index]!;
    const { consumerId, endpointIds } = found.get(index)!;
    if (!consumerId) {
      results[index] = { error: new NotFoundError("consumer", input.consumer) };
      continue;
    }
    const payload = payloads[index]!;
    const channels = input.channels ? [...new Set(input.channels)] : null;
    const tags = input.tags ? [...new Set(input.tags)] : null;
    ready.push({
      index,
      key: idempotencyKey,
      payload,
      channels,
      tags,
      endpointIds,
      // Channels and tags count only when given, so a key first used before they existed still replays.
      requestHash:
        idempotencyKey === undefined
          ? undefined
          : sha256Hex(JSON.stringify([consumerId, input.event_type, input.event_id ?? null, payload, ...(channels || tags ? [channels, tags] : [])])),
      message: {
        id: newId("message", now.getTime()),
        consumer_id: consumerId,
        event_type: input.event_type,
        event_id: input.event_id ?? null,
        created_at: now.toISOString(),
        deliveries: endpointIds.length,
      },
    });
  }
  if (ready.length === 0) return results as IngestResult[];

  // A key given twice in one call: its first item claims it; a later one is answered as a call of
  // its own right after it would be (a replay of the same request, a conflict for another).
  const owners = new Map<string, Ready>();
  const repeats: Ready[] = [];
  for (const item of ready) {
    if (item.key === undefined) continue;
    if (owners.has(item.key)) repeats.push(item);
    else owners.set(item.key, item);
  }
  const firsts = ready.filter((item) => item.key === undefined || owners.get(item.key) === item);
  const firstDelay = config.DELIVERY_SCHEDULE[0] ?? 0;
  const firstAttemptAt = new Date(now.getTime() + firstDelay);
  // What each key answers once this call commits: this call's message, or the one it was first used for.
  const stored = new Map<string, { requestHash: string; message: MessageAccepted }>();
  // Null, and no column written, unless this process traces.
  const traceparent = activeTraceparent();
  // Work due at once is announced by a NOTIFY after the commit (lib/jobs, notifyDueAfterCommit),
  // unless this joins a caller's transaction: then with it, as its commit is the caller's.
  const notifyInTransaction = notify === "in-transaction" || (notify === "after-commit" && Boolean(ctx.inTransaction));
  let notifyAfter = false;

  const isTest = Boolean(onlyEndpointId);
  // Not in a caller's transaction: the setting would outlive this write there.
  const write = (tx: SqlOrTx, rows: Ready[]) => writeMessages(tx, rows, { now, firstAttemptAt, isTest, traceparent, genericChecks: !ctx.inTransaction });
  const wakeInTransaction = firstDelay > 0 || notifyInTransaction;
  if (owners.size === 0 && !uniqueEventId && !wakeInTransaction && !ctx.inTransaction) {
    // Nothing to claim first and no wake-up to commit with it: the messages, their deliveries and
    // the queue rows are one statement, atomic on its own, so no BEGIN and COMMIT round trips.
    // (A deadlock or a target deleted meanwhile is retried by ingestMessages, as for the transaction.)
    await write(ctx.sql, firsts);
    for (const row of firsts) results[row.index] = { message: row.message, replayed: false };
    notifyAfter = notify === "after-commit" && firsts.some((r) => r.endpointIds.length > 0);
  } else {
    await inTransaction(ctx, async ({ sql: tx }) => {
      const writing = new Set(firsts);
      const keyed = [...owners.values()].sort((a, b) => (a.key! < b.key! ? -1 : a.key! > b.key! ? 1 : 0));
      if (keyed.length > 0) {
        // The insert takes each key's lock, in key order (two calls with keys in common never
        // deadlock): a concurrent request with the same key waits here until this transaction
        // ends, then replays its answer. An expired key is taken over.
        const claimed = await tx<{ key: string }[]>`
          insert into idempotency_keys (key, request_hash, message_id, response, created_at, expires_at)
          select k.key, k.request_hash, k.message_id, k.response, ${now}::timestamptz, ${new Date(now.getTime() + config.IDEMPOTENCY_TTL)}::timestamptz
          from unnest(${keyed.map((k) => k.key!)}::text[], ${keyed.map((k) => k.requestHash!)}::text[], ${keyed.map((k) => k.message.id)}::text[],
                      ${keyed.map((k) => JSON.stringify(k.message))}::text[]::jsonb[]) with ordinality as k(key, request_hash, message_id, response, n)
          order by k.n
          on conflict (key) do update set request_hash = excluded.request_hash, message_id = excluded.message_id,
            response = excluded.response, created_at = excluded.created_at, expires_at = excluded.expires_at
          where idempotency_keys.expires_at <= now()
          returning key`;
        const taken = new Set(claimed.map((c) => c.key));
        for (const item of keyed) if (taken.has(item.key!)) stored.set(item.key!, { requestHash: item.requestHash!, message: item.message });
        const held = keyed.filter((item) => !taken.has(item.key!));
        if (held.length > 0) {
          const existing = await tx<{ key: string; request_hash: string; response: MessageAccepted }[]>`
            select key, request_hash, response from idempotency_keys where key = any(${held.map((k) => k.key!)}::text[])`;
          for (const first of existing) stored.set(first.key, { requestHash: first.request_hash, message: first.response });
          for (const item of held) {
            writing.delete(item);
            results[item.index] = answerFor(item, stored.get(item.key!)!);
          }
        }
      }
      let rows = firsts.filter((item) => writing.has(item));
      if (uniqueEventId) {
        const refused = await claimEventIds(tx, rows, new Date(now.getTime() + config.EVENT_ID_TTL));
        for (const item of refused) {
          results[item.index] = { error: new ConflictError("event_id_taken", `A message with event_id "${item.message.event_id}" exists for this consumer.`) };
        }
        rows = rows.filter((item) => !refused.has(item));
      }
      if (rows.length === 0) return;
      const writes = [write(tx, rows)];
      // One wake-up for the whole call, however many messages it holds.
      if (rows.some((r) => r.endpointIds.length > 0)) {
        if (firstDelay > 0) writes.push(wakeDeliveries(tx, firstAttemptAt.getTime()));
        else if (notifyInTransaction) writes.push(notifyDue(tx));
        else notifyAfter = notify === "after-commit";
      }
      await Promise.all(writes);
      for (const row of rows) results[row.index] = { message: row.message, replayed: false };
    });
  }
  if (notifyAfter) {
    void notifyDueAfterCommit(ctx.sql, (error) => logger.warn("the wake-up after ingest failed; the next wake-up or the sweep delivers", { error: String(error) }));
  }

  for (const item of repeats) results[item.index] = answerFor(item, stored.get(item.key!)!);
  return results as IngestResult[];
}

/**
 * The messages, one delivery per target endpoint and each delivery's queue row, as one statement.
 * The deliveries take a key-share lock on each endpoint row in id order, as the worker's outcome
 * writes lock endpoint rows, or the two could deadlock.
 */
function writeMessages(
  tx: SqlOrTx,
  rows: Ready[],
  at: { now: Date; firstAttemptAt: Date; isTest: boolean; traceparent: string | null; genericChecks: boolean },
) {
  const { now, firstAttemptAt, isTest, traceparent, genericChecks } = at;
  const columns = ["id", "consumer_id", "event_type", "event_id", "payload", "is_test", "created_at"] as const;
  const labelled = rows.some((r) => r.channels || r.tags);
  const messages = tx`insert into messages ${tx(
    rows.map((r) => ({ ...r.message, payload: r.payload, is_test: isTest, created_at: now, traceparent, channels: r.channels, tags: r.tags })),
    ...columns,
    ...(traceparent ? (["traceparent"] as const) : []),
    ...(labelled ? (["channels", "tags"] as const) : []),
  )}`;
  const deliveries = rows
    .flatMap((r) => r.endpointIds.map((endpointId) => ({ endpointId, messageId: r.message.id, consumerId: r.message.consumer_id })))
    .sort((a, b) => (a.endpointId < b.endpointId ? -1 : a.endpointId > b.endpointId ? 1 : 0));
  if (deliveries.length === 0) return messages;
  // Data-modifying CTEs all run, to completion, whether read or not; the deliveries' foreign key to
  // their message is checked at the statement's end, when the message is there.
  //
  // Those checks, and the queue rows' into deliveries, look up partitioned tables one row at a time,
  // and by default PostgreSQL plans each lookup afresh (a plan for every partition looks costlier to
  // it than one for the row's), a planning cost paid on every row. For the rest of this
  // transaction — the statement itself when it is its own — they run the plan made once per
  // connection, pruned to the row's partition as it runs: a batch's write takes markedly less time
  // (ADR 0037, decision 4; figures in its consequences and docs/benchmarks.md#other-benchmark-scripts).
  const generic = genericChecks ? tx`select set_config('plan_cache_mode', 'force_generic_plan', true)` : tx`select 1`;
  return tx`with g as materialized (${generic}),
    m as (${messages}),
    d as (
      insert into deliveries (id, message_id, endpoint_id, consumer_id, status, next_attempt_at, created_at, updated_at)
      select unnest(${deliveries.map(() => newId("delivery", now.getTime()))}::text[]), unnest(${deliveries.map((d) => d.messageId)}::text[]),
             unnest(${deliveries.map((d) => d.endpointId)}::text[]), unnest(${deliveries.map((d) => d.consumerId)}::text[]),
             'pending', ${firstAttemptAt}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
      from g
      returning id, endpoint_id, consumer_id, next_attempt_at)
    insert into delivery_queue (delivery_id, endpoint_id, consumer_id, next_attempt_at) select id, endpoint_id, consumer_id, next_attempt_at from d`;
}

/**
 * Takes each message's event id for its consumer until `expiresAt` (a row of message_event_ids, whose
 * key makes two calls racing for one id take turns); an id held and not yet expired, or given twice
 * in this call, refuses the message. Returns the refused.
 */
async function claimEventIds(tx: SqlOrTx, rows: Ready[], expiresAt: Date): Promise<Set<Ready>> {
  const refused = new Set<Ready>();
  const firsts = new Map<string, Ready>();
  for (const row of rows) {
    if (row.message.event_id === null) continue;
    const key = JSON.stringify([row.message.consumer_id, row.message.event_id]);
    if (firsts.has(key)) refused.add(row);
    else firsts.set(key, row);
  }
  if (firsts.size === 0) return refused;
  const claiming = [...firsts.values()];
  const claimed = await tx<{ message_id: string }[]>`
    insert into message_event_ids (consumer_id, event_id, message_id, expires_at)
    select c, e, m, ${expiresAt}::timestamptz
    from unnest(${claiming.map((r) => r.message.consumer_id)}::text[], ${claiming.map((r) => r.message.event_id!)}::text[],
                ${claiming.map((r) => r.message.id)}::text[]) as k(c, e, m)
    order by c, e
    on conflict (consumer_id, event_id) do update set message_id = excluded.message_id, expires_at = excluded.expires_at
    where message_event_ids.expires_at <= now()
    returning message_id`;
  const taken = new Set(claimed.map((c) => c.message_id));
  for (const row of claiming) if (!taken.has(row.message.id)) refused.add(row);
  return refused;
}

/** A key already used: its first answer again for the same request, a conflict for another. */
function answerFor(item: Ready, first: { requestHash: string; message: MessageAccepted }): IngestResult {
  if (first.requestHash === item.requestHash) return { message: first.message, replayed: true };
  return { error: new ConflictError("idempotency_conflict", "This Idempotency-Key was already used with a different request body.") };
}
