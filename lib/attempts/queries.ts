import { z } from "zod";
import { eq, gte, lt, type SQL } from "drizzle-orm";
import { consumerScope, onReplica, type Ctx } from "../context";
import { attempts } from "../db/schema";
import { selectPage } from "../db/keyset";
import { toPage, type PageQuery } from "../pagination";
import { findConsumer, notErasing } from "../consumers/queries";
import { findMessageRow } from "../messages/queries";
import { IsoDate, Text } from "../schemas";

export const ListAttemptsQuery = z.object({
  endpoint_id: Text.max(64).optional(),
  consumer: Text.max(256).optional(),
  status: z.enum(["success", "failure"]).optional(),
  since: IsoDate.optional(),
  until: IsoDate.optional(),
});
export type ListAttemptsQuery = z.infer<typeof ListAttemptsQuery>;

export const MessageAttemptsQuery = z.object({ endpoint_id: Text.max(64).optional() });

export function toAttempt(row: typeof attempts.$inferSelect) {
  return {
    id: row.id,
    delivery_id: row.deliveryId,
    message_id: row.messageId,
    endpoint_id: row.endpointId,
    attempt_number: row.attemptNumber,
    trigger: row.trigger,
    success: row.success,
    status_code: row.statusCode,
    error: row.error,
    error_detail: row.errorDetail,
    response_body: row.responseBody,
    url: row.url,
    duration_ms: row.durationMs,
    request_headers: row.requestHeaders,
    created_at: row.createdAt.toISOString(),
  };
}

async function pageOfAttempts(ctx: Ctx, query: PageQuery, filters: (SQL | undefined)[]) {
  const scope = consumerScope(ctx);
  const rows = await selectPage(onReplica(ctx).db, attempts, query, [scope ? eq(attempts.consumerId, scope) : undefined, ...filters]);
  return toPage(rows, query.limit, toAttempt);
}

export async function listAttempts(ctx: Ctx, query: PageQuery & ListAttemptsQuery) {
  const consumerId = query.consumer ? (await findConsumer(ctx, query.consumer)).id : undefined;
  return pageOfAttempts(ctx, query, [
    query.endpoint_id ? eq(attempts.endpointId, query.endpoint_id) : undefined,
    // A consumer being erased is gone from the list at once, as it is from every read.
    consumerId ? eq(attempts.consumerId, consumerId) : await notErasing(ctx, attempts.consumerId),
    query.status ? eq(attempts.success, query.status === "success") : undefined,
    query.since ? gte(attempts.createdAt, query.since) : undefined,
    query.until ? lt(attempts.createdAt, query.until) : undefined,
  ]);
}

export async function listMessageAttempts(ctx: Ctx, messageId: string, query: PageQuery & z.infer<typeof MessageAttemptsQuery>) {
  await findMessageRow(ctx, messageId);
  return pageOfAttempts(ctx, query, [
    eq(attempts.messageId, messageId),
    query.endpoint_id ? eq(attempts.endpointId, query.endpoint_id) : undefined,
  ]);
}
