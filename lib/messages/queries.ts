import { and, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { consumerScope, type Ctx } from "../context";
import { deliveries, messages } from "../db/schema";
import { keysetBefore, newestFirst } from "../db/keyset";
import { NotFoundError } from "../errors";
import { decodeCursor, toPage, type PageQuery } from "../pagination";
import { findConsumer } from "../consumers/queries";
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
    created_at: row.createdAt.toISOString(),
  };
}

export async function listMessages(ctx: Ctx, query: PageQuery & ListMessagesQuery) {
  const cursor = decodeCursor(query.cursor);
  const scope = consumerScope(ctx);
  const consumerId = query.consumer ? (await findConsumer(ctx, query.consumer)).id : scope;
  const filters: (SQL | undefined)[] = [
    cursor ? keysetBefore(messages.createdAt, messages.id, cursor) : undefined,
    consumerId ? eq(messages.consumerId, consumerId) : undefined,
    query.event_type ? eq(messages.eventType, query.event_type) : undefined,
    query.since ? gte(messages.createdAt, query.since) : undefined,
    query.until ? lt(messages.createdAt, query.until) : undefined,
    // payload is text holding the exact bytes sent, so containment needs the cast.
    query.payload_contains ? sql`webhook_admin_payload_jsonb(${messages.payload}) @> ${query.payload_contains}::jsonb` : undefined,
  ];
  if (query.status || query.endpoint_id) {
    filters.push(
      sql`exists (select 1 from ${deliveries} d where d.message_id = ${messages.id}
        ${query.status ? sql`and d.status = ${query.status}` : sql``}
        ${query.endpoint_id ? sql`and d.endpoint_id = ${query.endpoint_id}` : sql``})`,
    );
  }
  const rows = await ctx.db
    .select()
    .from(messages)
    .where(and(...filters))
    .orderBy(...newestFirst(messages.createdAt, messages.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const deliveryRows = page.length
    ? await ctx.db.select(deliveryColumns).from(deliveries).where(inArray(deliveries.messageId, page.map((m) => m.id)))
    : [];
  return toPage(rows, query.limit, (row) => ({
    ...toMessage(row),
    deliveries: deliveryRows.filter((d) => d.messageId === row.id).map(toDeliverySummary),
  }));
}

export async function findMessageRow(ctx: Ctx, id: string) {
  const scope = consumerScope(ctx);
  const [row] = await ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.id, id), scope ? eq(messages.consumerId, scope) : undefined))
    .limit(1);
  if (!row) throw new NotFoundError("message", id);
  return row;
}

/** A message with its payload (as sent) and every delivery's state. */
export async function getMessage(ctx: Ctx, id: string) {
  const row = await findMessageRow(ctx, id);
  const deliveryRows = await ctx.db.select(deliveryColumns).from(deliveries).where(eq(deliveries.messageId, id));
  return { ...toMessage(row), payload: JSON.parse(row.payload) as unknown, deliveries: deliveryRows.map(toDeliverySummary) };
}
