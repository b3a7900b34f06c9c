import { and, eq, gt, inArray, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "../context";
import { attempts, deliveries, endpoints, messages } from "../db/schema";
import { deliveriesOfMessage, deliveriesOfMessageColumn } from "../db/deliveries-of-messages";
import { findEndpointRow } from "../endpoints";
import { AppError, ConflictError, NotFoundError } from "../errors";
import { CreateMessageInput, createMessage, findMessageRow, getMessage, messageColumns, resendMessage } from "../messages";
import { ApplicationIn, createApplication } from "./applications";
import { appOf, endpointIn, EndpointOut, rowOut } from "./endpoints";
import { SvixValidationError } from "./errors";
import { keyset, ListQuery, QueryBool, QueryList, scopedIterator, SvixTime, timeKeyset } from "./request";

/**
 * Svix messages and attempts over ours, within the application in the path. A message is named by
 * its id or its `eventId`. Statuses (docs/svix.md, "Statuses"): an attempt is 0 success or 2 fail; a delivery
 * (a message to one endpoint) is 0 succeeded, 1 pending and never tried, 3 pending after a try
 * (retrying), 2 failed, 4 canceled (0 without `expanded_statuses`, Svix's older mapping).
 */
type DeliveryRow = typeof deliveries.$inferSelect;

type MessageRow = typeof messages.$inferSelect;

// What a list reads of a message (messageColumns) and an attempt: the payload and the response only
// with content, so a list without (what the 2.x SDKs ask by default) reads neither from the database.
const attemptColumns = (withContent: boolean) => ({
  id: attempts.id,
  messageId: attempts.messageId,
  endpointId: attempts.endpointId,
  url: attempts.url,
  success: attempts.success,
  statusCode: attempts.statusCode,
  error: attempts.error,
  responseBody: withContent ? attempts.responseBody : sql<string | null>`null`,
  durationMs: attempts.durationMs,
  trigger: attempts.trigger,
  createdAt: attempts.createdAt,
});
type AttemptRow = Pick<typeof attempts.$inferSelect, keyof ReturnType<typeof attemptColumns>>;

export const MessageIn = z.object({
  eventType: z.string(),
  payload: z.record(z.string(), z.unknown()),
  eventId: z.string().nullish(),
  channels: z.array(z.string()).nullish(),
  tags: z.array(z.string()).nullish(),
  application: ApplicationIn.nullish(),
  deliverAt: z.string().nullish(),
  payloadRetentionPeriod: z.number().nullish(),
  payloadRetentionHours: z.number().nullish(),
  transformationsParams: z.record(z.string(), z.unknown()).nullish(),
});
export type MessageIn = z.infer<typeof MessageIn>;

export const MessageOut = z.object({
  id: z.string(),
  eventType: z.string(),
  eventId: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
  channels: z.array(z.string()).nullable(),
  tags: z.array(z.string()).nullable(),
  timestamp: z.string(),
  deliverAt: z.string().nullable(),
});
export type MessageOut = z.infer<typeof MessageOut>;

const STATUS_TEXT = ["success", "pending", "fail", "sending", "canceled"] as const;
const Status = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);

/** A payload as Svix answers it: `{}` without content, `{"expired": true}` once expunged. */
function payloadOut(payload: unknown, withContent: boolean): Record<string, unknown> {
  if (!withContent) return {};
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return { expired: true };
  return payload as Record<string, unknown>;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function toMessageOut(row: { id: string; eventType: string; eventId: string | null; channels: string[] | null; tags: string[] | null; createdAt: Date }, payload: unknown, withContent: boolean): MessageOut {
  return {
    // First: a kept idempotent answer is told to be a message's by its opening (lib/svix/idempotency.ts).
    id: row.id,
    eventType: row.eventType,
    eventId: row.eventId,
    payload: payloadOut(payload, withContent),
    channels: row.channels,
    tags: row.tags,
    timestamp: row.createdAt.toISOString(),
    deliverAt: null,
  };
}

const rowMessageOut = (row: MessageRow, withContent: boolean) => toMessageOut(row, withContent ? parsed(row.payload) : {}, withContent);

/** Ours, checked by our own schema, errors named as Svix names the fields. */
function ourInput(input: unknown) {
  const result = CreateMessageInput.safeParse(input);
  if (result.success) return result.data;
  const names: Record<string, string> = { event_type: "eventType", event_id: "eventId" };
  throw new SvixValidationError(result.error.issues.map((i) => ({ loc: ["body", ...i.path.map((p, n) => (n === 0 ? (names[String(p)] ?? String(p)) : typeof p === "number" ? p : String(p)))], msg: i.message, type: "value_error" })));
}

/**
 * POST /app/{app_id}/msg: ingested as ours, its eventId unique for the application within
 * EVENT_ID_TTL (409 `conflict`); `application` makes the consumer when none has that id or uid.
 */
export async function createSvixMessage(ctx: Ctx, appRef: string, input: MessageIn, withContent: boolean): Promise<MessageOut> {
  if (input.deliverAt) throw new SvixValidationError([{ loc: ["body", "deliverAt"], msg: "scheduled delivery is not supported by this server", type: "value_error" }]);
  if (input.transformationsParams?.rawPayload !== undefined) {
    throw new SvixValidationError([{ loc: ["body", "transformationsParams"], msg: "rawPayload is not supported by this server", type: "value_error" }]);
  }
  if (input.application?.uid && input.application.uid !== appRef) {
    throw new AppError(422, "application_uid_mismatch", "Validation failed", "The application's uid must be the one in the path.");
  }
  const app = await appOf(ctx, appRef).catch(async (error: unknown) => {
    if (!(error instanceof NotFoundError) || !input.application) throw error;
    const { app: made } = await createApplication(ctx, { ...input.application, uid: input.application.uid ?? appRef }, true);
    return appOf(ctx, made.id);
  });
  const ours = ourInput({
    consumer: app.id,
    event_type: input.eventType,
    payload: input.payload,
    ...(input.eventId ? { event_id: input.eventId } : {}),
    ...(input.channels?.length ? { channels: input.channels } : {}),
    ...(input.tags?.length ? { tags: input.tags } : {}),
  });
  const { message } = await createMessage({ ctx, input: ours, uniqueEventId: true });
  return toMessageOut(
    { id: message.id, eventType: message.event_type, eventId: message.event_id, channels: ours.channels ?? null, tags: ours.tags ?? null, createdAt: new Date(message.created_at) },
    input.payload,
    withContent,
  );
}

export const ListMessagesQuery = ListQuery.extend({
  channel: z.string().max(128).optional(),
  tag: z.string().max(128).optional(),
  before: SvixTime.optional(),
  after: SvixTime.optional(),
  with_content: QueryBool.optional(),
  event_types: QueryList.optional(),
});
type ListMessagesQuery = z.infer<typeof ListMessagesQuery>;

/** Filters on a message's own fields, shared by the message and attempt lists. */
function messageFilters(query: { channel?: string; tag?: string; event_types?: string[] }, m = messages): (SQL | undefined)[] {
  return [
    query.channel ? sql`${m.channels} @> array[${query.channel}]::text[]` : undefined,
    query.tag ? sql`${m.tags} @> array[${query.tag}]::text[]` : undefined,
    query.event_types?.length ? inArray(m.eventType, query.event_types) : undefined,
  ];
}

/** Newest first. */
export async function listSvixMessages(ctx: Ctx, appRef: string, query: ListMessagesQuery) {
  const app = await appOf(ctx, appRef);
  const from = await scopedIterator(ctx, messages, messages, eq(messages.consumerId, app.id), query);
  const page = timeKeyset(messages.createdAt, messages.id, from.query, from.pivotAt);
  const withContent = query.with_content ?? true;
  const rows = await ctx.db
    .select(messageColumns(withContent))
    .from(messages)
    .where(
      and(
        eq(messages.consumerId, app.id),
        page.where,
        query.before ? lt(messages.createdAt, query.before) : undefined,
        query.after ? gt(messages.createdAt, query.after) : undefined,
        ...messageFilters(query),
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.limit);
  return page.page(rows, (row) => row.id, (row) => rowMessageOut(row, withContent));
}

export const GetMessageQuery = z.object({ with_content: QueryBool.optional() });

export async function getSvixMessage(ctx: Ctx, appRef: string, ref: string, withContent: boolean): Promise<MessageOut> {
  const app = await appOf(ctx, appRef);
  const row = await findMessageRow(ctx, ref, { consumerId: app.id, content: false });
  // getMessage answers the payload as sent, or null once expunged.
  const { payload } = withContent ? await getMessage(ctx, row.id) : { payload: {} };
  return toMessageOut(row, payload, withContent);
}

// ---- attempts

export const MessageAttemptOut = z.object({
  id: z.string(),
  msgId: z.string(),
  endpointId: z.string(),
  url: z.string(),
  response: z.string(),
  responseStatusCode: z.number(),
  responseDurationMs: z.number(),
  status: Status,
  statusText: z.enum(STATUS_TEXT),
  triggerType: z.union([z.literal(0), z.literal(1)]),
  timestamp: z.string(),
  msg: MessageOut.optional(),
});
export type MessageAttemptOut = z.infer<typeof MessageAttemptOut>;

function toAttemptOut(row: AttemptRow, withContent: boolean, msg?: MessageOut): MessageAttemptOut {
  const status = row.success ? 0 : 2;
  return {
    id: row.id,
    msgId: row.messageId,
    endpointId: row.endpointId,
    url: row.url ?? "",
    // No HTTP answer: status code 0 and the error in words, as Svix answers it.
    response: withContent ? (row.statusCode === null ? (row.error ?? "") : (row.responseBody ?? "")) : "{}",
    responseStatusCode: row.statusCode ?? 0,
    responseDurationMs: row.durationMs,
    status,
    statusText: STATUS_TEXT[status],
    triggerType: row.trigger === "scheduled" || row.trigger === "probe" ? 0 : 1,
    timestamp: row.createdAt.toISOString(),
    ...(msg ? { msg } : {}),
  };
}

export const ListAttemptsQuery = ListQuery.extend({
  status: z.coerce.number().int().min(0).max(4).optional(),
  status_code_class: z.coerce.number().int().refine((n) => [0, 100, 200, 300, 400, 500].includes(n), "must be 0, 100, 200, 300, 400 or 500").optional(),
  channel: z.string().max(128).optional(),
  tag: z.string().max(128).optional(),
  endpoint_id: z.string().max(256).optional(),
  before: SvixTime.optional(),
  after: SvixTime.optional(),
  with_content: QueryBool.optional(),
  with_msg: QueryBool.optional(),
  expanded_statuses: QueryBool.optional(),
  event_types: QueryList.optional(),
});
type ListAttemptsQuery = z.infer<typeof ListAttemptsQuery>;

async function listAttemptsWhere(ctx: Ctx, appId: string, where: SQL, query: ListAttemptsQuery) {
  const from = await scopedIterator(ctx, attempts, attempts, and(eq(attempts.consumerId, appId), where), query);
  const page = timeKeyset(attempts.createdAt, attempts.id, from.query, from.pivotAt);
  const withContent = query.with_content ?? true;
  const onMessage = messageFilters(query).filter(Boolean) as SQL[];
  const codeClass = query.status_code_class;
  const rows = await ctx.db
    .select(attemptColumns(withContent))
    .from(attempts)
    .where(
      and(
        eq(attempts.consumerId, appId),
        where,
        page.where,
        // Our attempts have ended: success (0) or fail (2); no attempt is pending, sending or canceled.
        query.status !== undefined ? (query.status === 0 ? eq(attempts.success, true) : query.status === 2 ? eq(attempts.success, false) : sql`false`) : undefined,
        codeClass === undefined ? undefined : codeClass === 0 ? sql`${attempts.statusCode} is null` : sql`${attempts.statusCode} between ${codeClass} and ${codeClass + 99}`,
        query.before ? lt(attempts.createdAt, query.before) : undefined,
        query.after ? gt(attempts.createdAt, query.after) : undefined,
        onMessage.length ? sql`exists (select 1 from ${messages} where ${messages.id} = ${attempts.messageId} and ${and(...onMessage)})` : undefined,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.limit);
  const msgs = new Map<string, MessageOut>();
  if (query.with_msg && rows.length) {
    const found = await ctx.db.select(messageColumns(withContent)).from(messages).where(inArray(messages.id, [...new Set(rows.map((r) => r.messageId))]));
    for (const m of found) msgs.set(m.id, rowMessageOut(m, withContent));
  }
  return page.page(rows, (row) => row.id, (row) => toAttemptOut(row, withContent, msgs.get(row.messageId)));
}

/** messageAttempt.listByMsg: the message's attempts, newest first. */
export async function listAttemptsByMessage(ctx: Ctx, appRef: string, msgRef: string, query: ListAttemptsQuery) {
  const app = await appOf(ctx, appRef);
  const message = await findMessageRow(ctx, msgRef, { consumerId: app.id, content: false });
  const endpoint = query.endpoint_id ? await findEndpointRow(ctx, query.endpoint_id, { consumerId: app.id }) : null;
  return listAttemptsWhere(ctx, app.id, and(eq(attempts.messageId, message.id), endpoint ? eq(attempts.endpointId, endpoint.id) : undefined)!, query);
}

/** messageAttempt.listByEndpoint: the endpoint's attempts, newest first. */
export async function listAttemptsByEndpoint(ctx: Ctx, appRef: string, endpointRef: string, query: ListAttemptsQuery) {
  const endpoint = await endpointIn(ctx, appRef, endpointRef);
  return listAttemptsWhere(ctx, endpoint.consumerId, eq(attempts.endpointId, endpoint.id), query);
}

export async function getSvixAttempt(ctx: Ctx, appRef: string, msgRef: string, attemptId: string): Promise<MessageAttemptOut> {
  const app = await appOf(ctx, appRef);
  const message = await findMessageRow(ctx, msgRef, { consumerId: app.id, content: false });
  const [row] = await ctx.db.select(attemptColumns(true)).from(attempts).where(and(eq(attempts.id, attemptId), eq(attempts.messageId, message.id))).limit(1);
  if (!row) throw new NotFoundError("attempt", attemptId);
  return toAttemptOut(row, true);
}

// ---- deliveries: attempted messages and destinations

function deliveryStatus(row: Pick<DeliveryRow, "status" | "attempts">, expanded: boolean): z.infer<typeof Status> {
  if (row.status === "succeeded") return 0;
  if (row.status === "failed") return 2;
  if (row.status === "canceled") return expanded ? 4 : 0;
  return row.attempts === 0 ? 1 : 3;
}

function deliveryFields(row: Pick<DeliveryRow, "status" | "attempts" | "nextAttemptAt">, expanded: boolean) {
  const status = deliveryStatus(row, expanded);
  return { status, statusText: STATUS_TEXT[status], nextAttempt: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null };
}

const DeliveryFields = z.object({ status: Status, statusText: z.enum(STATUS_TEXT), nextAttempt: z.string().nullable() });
export const EndpointMessageOut = MessageOut.extend(DeliveryFields.shape);
export type EndpointMessageOut = z.infer<typeof EndpointMessageOut>;

export const ListAttemptedMessagesQuery = ListMessagesQuery.extend({ status: z.coerce.number().int().min(0).max(4).optional(), expanded_statuses: QueryBool.optional() });

/** messageAttempt.listAttemptedMessages: messages sent (or to be sent) to the endpoint, newest first, each with its delivery's status. */
export async function listAttemptedMessages(ctx: Ctx, appRef: string, endpointRef: string, query: z.infer<typeof ListAttemptedMessagesQuery>) {
  const endpoint = await endpointIn(ctx, appRef, endpointRef);
  const from = await scopedIterator(ctx, messages, messages, eq(messages.consumerId, endpoint.consumerId), query);
  const page = timeKeyset(messages.createdAt, messages.id, from.query, from.pivotAt);
  const expanded = query.expanded_statuses ?? false;
  const withContent = query.with_content ?? true;
  const byStatus: Record<number, SQL> = {
    0: sql`${deliveries.status} = 'succeeded'`,
    1: sql`${deliveries.status} = 'pending' and ${deliveries.attempts} = 0`,
    2: sql`${deliveries.status} = 'failed'`,
    3: sql`${deliveries.status} = 'pending' and ${deliveries.attempts} > 0`,
    4: sql`${deliveries.status} = 'canceled'`,
  };
  const rows = await ctx.db
    .select({ message: messageColumns(withContent), delivery: { status: deliveries.status, attempts: deliveries.attempts, nextAttemptAt: deliveries.nextAttemptAt } })
    .from(deliveries)
    .innerJoin(messages, deliveriesOfMessageColumn(messages.id))
    .where(
      and(
        eq(deliveries.endpointId, endpoint.id),
        page.where,
        query.status !== undefined ? byStatus[query.status] : undefined,
        query.before ? lt(messages.createdAt, query.before) : undefined,
        query.after ? gt(messages.createdAt, query.after) : undefined,
        ...messageFilters(query),
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.limit);
  return page.page(
    rows,
    (row) => row.message.id,
    (row) => ({ ...rowMessageOut(row.message, withContent), ...deliveryFields(row.delivery, expanded) }),
  );
}

export const MessageEndpointOut = EndpointOut.extend(DeliveryFields.shape);
export type MessageEndpointOut = z.infer<typeof MessageEndpointOut>;

export const ListAttemptedDestinationsQuery = ListQuery.extend({ expanded_statuses: QueryBool.optional() });

/** messageAttempt.listAttemptedDestinations: the endpoints the message goes to, each with its delivery's status. */
export async function listAttemptedDestinations(ctx: Ctx, appRef: string, msgRef: string, query: z.infer<typeof ListAttemptedDestinationsQuery>) {
  const app = await appOf(ctx, appRef);
  const message = await findMessageRow(ctx, msgRef, { consumerId: app.id, content: false });
  const from = await scopedIterator(ctx, endpoints, endpoints, eq(endpoints.consumerId, app.id), query);
  const page = keyset(endpoints.id, from.query, "ascending");
  const rows = await ctx.db
    .select({ endpoint: endpoints, delivery: { status: deliveries.status, attempts: deliveries.attempts, nextAttemptAt: deliveries.nextAttemptAt } })
    .from(deliveries)
    .innerJoin(endpoints, eq(endpoints.id, deliveries.endpointId))
    .where(and(deliveriesOfMessage(message.id), page.where))
    .orderBy(...page.orderBy)
    .limit(page.limit);
  const expanded = query.expanded_statuses ?? false;
  return page.page(
    rows,
    (row) => row.endpoint.id,
    (row): MessageEndpointOut => ({ ...rowOut(ctx, row.endpoint), ...deliveryFields(row.delivery, expanded) }),
  );
}

/** messageAttempt.resend: a manual attempt queued; 400 `missing_payload` once the payload is expunged. */
export async function resendSvixMessage(ctx: Ctx, appRef: string, msgRef: string, endpointRef: string): Promise<void> {
  const app = await appOf(ctx, appRef);
  const message = await findMessageRow(ctx, msgRef, { consumerId: app.id, content: false });
  const endpoint = await findEndpointRow(ctx, endpointRef, { consumerId: app.id });
  try {
    await resendMessage({ ctx, messageId: message.id, endpointId: endpoint.id });
  } catch (error) {
    if (error instanceof ConflictError && error.code === "payload_expunged") throw new AppError(400, "missing_payload", "Missing payload", error.message);
    throw error;
  }
}
