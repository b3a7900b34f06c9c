import { and, eq, getTableColumns, gte, isNotNull, isNull, lt, notInArray, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { consumerScope, onReplica, type Ctx } from "../context";
import { deliveries, failedDeliveries, messages } from "../db/schema";
import { keysetBefore, newestFirst } from "../db/keyset";
import { NotFoundError } from "../errors";
import { deliveriesOfMessage, deliveriesOfMessageColumn, deliveriesOfMessages } from "../db/deliveries-of-messages";
import { decodeCursor, toPage, type PageQuery } from "../pagination";
import { consumerRefs, erasingConsumerIds, findConsumer } from "../consumers/queries";
import { endpointRefs } from "../endpoints/queries";
import { toDeliverySummary, type ListMessagesQuery } from "./schemas";

const deliveryColumns = {
  id: deliveries.id,
  messageId: deliveries.messageId,
  endpointId: deliveries.endpointId,
  status: deliveries.status,
  attempts: deliveries.attempts,
  nextAttemptAt: deliveries.nextAttemptAt,
  lastStatusCode: deliveries.lastStatusCode,
  lastError: deliveries.lastError,
  lastAttemptAt: deliveries.lastAttemptAt,
};

function toMessage(row: typeof messages.$inferSelect) {
  return {
    id: row.id,
    consumer_id: row.consumerId,
    event_type: row.eventType,
    event_id: row.eventId,
    channels: row.channels,
    tags: row.tags,
    created_at: row.createdAt.toISOString(),
    schema_version: row.schemaVersion,
    schema_violations: row.schemaViolations,
  };
}

export async function listMessages(ctx: Ctx, query: PageQuery & ListMessagesQuery) {
  const cursor = decodeCursor(query.cursor);
  const scope = consumerScope(ctx);
  const consumerId = query.consumer ? (await findConsumer(ctx, query.consumer)).id : scope;
  /** The page's place, consumer and time window, on whichever table the walk goes down. */
  // Messages of a consumer being erased are left out until its erasure reaches them.
  const erasing = consumerId ? [] : await erasingConsumerIds(ctx);
  // The consumer and the erasures above are the primary's (one just made lists, one being erased is
  // gone at once); the log itself may be a moment behind on the replica.
  const log = onReplica(ctx);
  const walk = (createdAt: AnyColumn, id: AnyColumn, consumer: AnyColumn) => [
    cursor ? keysetBefore(createdAt, id, cursor) : undefined,
    consumerId ? eq(consumer, consumerId) : erasing.length > 0 ? notInArray(consumer, erasing) : undefined,
    query.since ? gte(createdAt, query.since) : undefined,
    query.until ? lt(createdAt, query.until) : undefined,
  ];
  const content = [
    query.event_type ? eq(messages.eventType, query.event_type) : undefined,
    query.channel ? sql`${messages.channels} @> array[${query.channel}]::text[]` : undefined,
    query.tag ? sql`${messages.tags} @> array[${query.tag}]::text[]` : undefined,
    query.schema_invalid === undefined ? undefined : query.schema_invalid ? isNotNull(messages.schemaViolations) : isNull(messages.schemaViolations),
    // payload is text holding the exact bytes sent, so containment needs the cast.
    query.payload_contains ? sql`webhook_admin_payload_jsonb(${messages.payload}) @> ${query.payload_contains}::jsonb` : undefined,
  ];
  const rows =
    query.status === "failed"
      ? await failedMessages(log, query, walk, content)
      : await log.db
          .select()
          .from(messages)
          .where(
            and(
              ...walk(messages.createdAt, messages.id, messages.consumerId),
              ...content,
              query.status || query.endpoint_id
                ? sql`exists (select 1 from ${deliveries} where ${deliveriesOfMessageColumn(messages.id)}
                    ${query.status ? sql`and ${deliveries.status} = ${query.status}` : sql``}
                    ${query.endpoint_id ? sql`and ${deliveries.endpointId} = ${query.endpoint_id}` : sql``})`
                : undefined,
            ),
          )
          .orderBy(...newestFirst(messages.createdAt, messages.id))
          .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const deliveryRows = page.length
    ? await log.db
        .select(deliveryColumns)
        .from(deliveries)
        .where(deliveriesOfMessages(page.map((m) => m.id)))
    : [];
  // Names for the page's distinct consumers and endpoints, by primary key: the walk above keeps its plan.
  const [owners, targets] = await Promise.all([consumerRefs(log, page.map((m) => m.consumerId)), endpointRefs(log, deliveryRows.map((d) => d.endpointId))]);
  return toPage(rows, query.limit, (row) => ({
    ...toMessage(row),
    deliveries: deliveryRows.filter((d) => d.messageId === row.id).map((d) => toDeliverySummary(d, targets.get(d.endpointId) ?? null)),
    consumer: owners.get(row.consumerId) ?? null,
  }));
}

/**
 * `status=failed` goes down failed_deliveries, newest message first, and looks up only the messages
 * it lists: the newest day of messages usually holds no failed delivery (see the table).
 */
async function failedMessages(
  ctx: Ctx,
  query: PageQuery & ListMessagesQuery,
  walk: (createdAt: AnyColumn, id: AnyColumn, consumer: AnyColumn) => (SQL | undefined)[],
  content: (SQL | undefined)[],
) {
  const f = failedDeliveries;
  // A message failed at two endpoints is listed once.
  const failed = ctx.db
    .selectDistinctOn([f.messageCreatedAt, f.messageId], { messageId: f.messageId, createdAt: f.messageCreatedAt })
    .from(f)
    .where(and(...walk(f.messageCreatedAt, f.messageId, f.consumerId), query.endpoint_id ? eq(f.endpointId, query.endpoint_id) : undefined))
    .orderBy(...newestFirst(f.messageCreatedAt, f.messageId))
    .as("failed");
  return ctx.db
    .select(getTableColumns(messages))
    .from(failed)
    .innerJoin(messages, eq(messages.id, failed.messageId))
    .where(and(...content))
    .orderBy(...newestFirst(failed.createdAt, failed.messageId))
    .limit(query.limit + 1);
}

const { payload: _payload, ...messageMeta } = getTableColumns(messages);

/**
 * A message's columns, its payload only `withContent`: without, `payload` reads '' and the
 * payload is not read from the database (a list of 250 need not read 250 payloads to leave them out).
 */
export const messageColumns = (withContent: boolean) => ({ ...messageMeta, payload: withContent ? messages.payload : sql<string>`''` });

/**
 * A message within the actor's scope, by id; within a consumer (`consumerId`), by its event id too
 * (the newest with it). Without `content`, its payload is not read (messageColumns).
 */
export async function findMessageRow(ctx: Ctx, ref: string, { consumerId, content = true }: { consumerId?: string; content?: boolean } = {}) {
  const scope = consumerScope(ctx);
  const limits = [
    scope ? eq(messages.consumerId, scope) : undefined,
    consumerId ? eq(messages.consumerId, consumerId) : undefined,
    // A consumer being erased is gone from every read, its messages with it (lib/retention).
    sql`not exists (select 1 from consumers c where c.id = ${messages.consumerId} and c.deleted_at is not null)`,
  ];
  const columns = messageColumns(content);
  const [byId] = await ctx.db.select(columns).from(messages).where(and(eq(messages.id, ref), ...limits)).limit(1);
  const [row] = byId || !consumerId
    ? [byId]
    : await ctx.db
        .select(columns)
        .from(messages)
        .where(and(eq(messages.eventId, ref), ...limits))
        .orderBy(...newestFirst(messages.createdAt, messages.id))
        .limit(1);
  if (!row) throw new NotFoundError("message", ref);
  return row;
}

/** A message with its payload (as sent) and every delivery's state. */
export async function getMessage(ctx: Ctx, id: string) {
  const row = await findMessageRow(ctx, id);
  const deliveryRows = await ctx.db
    .select(deliveryColumns)
    .from(deliveries)
    .where(deliveriesOfMessage(row.id));
  const filtered = row.filteredEndpointIds ?? [];
  const [owners, targets] = await Promise.all([consumerRefs(ctx, [row.consumerId]), endpointRefs(ctx, [...deliveryRows.map((d) => d.endpointId), ...filtered])]);
  return {
    ...toMessage(row),
    // An expunged payload is gone (lib/retention/expunge-payload.ts): null, and when.
    payload: row.payloadExpungedAt ? null : (JSON.parse(row.payload) as unknown),
    payload_expunged_at: row.payloadExpungedAt?.toISOString() ?? null,
    deliveries: deliveryRows.map((d) => toDeliverySummary(d, targets.get(d.endpointId) ?? null)),
    filtered: filtered.map((endpointId) => ({ endpoint_id: endpointId, endpoint: targets.get(endpointId) ?? null })),
    consumer: owners.get(row.consumerId) ?? null,
  };
}
