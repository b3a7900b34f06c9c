import { recordAuditEvent } from "../audit/record-audit-event";
import { consumerScope, inTransaction, type Ctx } from "../context";
import type { SqlOrTx } from "../db/client";
import { deliveriesOfMessagesSql } from "../db/deliveries-of-messages";
import { ConflictError, NotFoundError } from "../errors";

/** What an expunged message's `payload` column holds: no byte of what was sent. */
export const EXPUNGED_PAYLOAD = "";

/**
 * DELETE /messages/{id}/payload: the payload's bytes are overwritten (the message keeps
 * `payload_expunged_at`), while the message, its deliveries and its attempt log stay — its attempts'
 * response bodies emptied, since a receiver's answer may echo the payload. Nothing can
 * send it again: its queued work is removed — a delivery still pending ends `canceled` with
 * `last_error: payload_expunged`, a resend or recovery item waiting is dropped (the run's feeder
 * skips the item, `payload_expired`) — and resends are refused (409 `payload_expunged`). An attempt
 * already on its way when this commits finishes. Already expunged: 409 `payload_expunged`.
 */
export async function expungePayload({ ctx, messageId }: { ctx: Ctx; messageId: string }): Promise<void> {
  const scope = consumerScope(ctx);
  await inTransaction(ctx, async (tx) => {
    const { sql } = tx;
    const [message] = await sql<{ id: string; payload_expunged_at: Date | null }[]>`
      select m.id, m.payload_expunged_at from messages m
      where m.id = ${messageId} ${scope ? sql`and m.consumer_id = ${scope}` : sql``}
        and not exists (select 1 from consumers c where c.id = m.consumer_id and c.deleted_at is not null)
      for update of m`;
    if (!message) throw new NotFoundError("message", messageId);
    if (message.payload_expunged_at) {
      throw new ConflictError("payload_expunged", `This message's payload was expunged at ${message.payload_expunged_at.toISOString()}.`);
    }
    const counts = await expungeLocked(sql, [message.id]);
    await recordAuditEvent(tx, { action: "message.payload_expunged", targetType: "message", targetId: message.id, data: counts });
  });
}

/**
 * The Svix API's bulk expunge: each of `refs` (a message's id, or its event id: the messages with
 * it) of one consumer, in one transaction; a message expunged already counts as expunged. The
 * messages found, each audited as DELETE /messages/{id}/payload is.
 */
export async function expungePayloads({ ctx, consumerId, refs }: { ctx: Ctx; consumerId: string; refs: string[] }): Promise<Map<string, "expunged" | "not-found">> {
  const scope = consumerScope(ctx);
  return inTransaction(ctx, async (tx) => {
    const { sql } = tx;
    if (scope && scope !== consumerId) throw new NotFoundError("consumer", consumerId);
    const rows = await sql<{ id: string; event_id: string | null; payload_expunged_at: Date | null }[]>`
      select m.id, m.event_id, m.payload_expunged_at from messages m
      where m.consumer_id = ${consumerId} and (m.id = any(${refs}::text[]) or m.event_id = any(${refs}::text[]))
        and not exists (select 1 from consumers c where c.id = m.consumer_id and c.deleted_at is not null)
      order by m.id
      for update of m`;
    const results = new Map<string, "expunged" | "not-found">(refs.map((ref) => [ref, "not-found"]));
    for (const row of rows) {
      for (const ref of [row.id, row.event_id]) if (ref && results.has(ref)) results.set(ref, "expunged");
    }
    const fresh = rows.filter((row) => !row.payload_expunged_at).map((row) => row.id);
    if (fresh.length === 0) return results;
    await expungeLocked(sql, fresh);
    for (const id of fresh) await recordAuditEvent(tx, { action: "message.payload_expunged", targetType: "message", targetId: id, data: { bulk: true } });
    return results;
  });
}

/**
 * The expunge itself, of messages whose rows the caller's transaction holds `for update` (a resend
 * and a recovery's feeder take a key-share lock on the message before they queue anything, so they
 * wait and then see it expunged): their queue rows and deliveries locked in the worker's order, then
 * the bytes overwritten. The old row version holding them is reclaimed by (auto)vacuum, as for any
 * update.
 */
export async function expungeLocked(sql: SqlOrTx, messageIds: string[]) {
  const ofMessages = deliveriesOfMessagesSql(sql, messageIds);
  const deliveries = sql`select id from deliveries where ${ofMessages}`;
  await sql`select 1 from delivery_queue where delivery_id in (${deliveries}) order by delivery_id, kind for update`;
  await sql`select 1 from deliveries where ${ofMessages} order by id for update`;
  const dropped = await sql`delete from delivery_queue where delivery_id in (${deliveries})`;
  const canceled = await sql`
    update deliveries set status = 'canceled', next_attempt_at = null, last_error = 'payload_expunged', updated_at = now()
    where ${ofMessages} and status = 'pending'`;
  await sql`update messages set payload = ${EXPUNGED_PAYLOAD}, payload_expunged_at = now() where id = any(${messageIds}::text[])`;
  // Their attempts' logged responses: a receiver may echo what it was sent. Status, error and
  // timing stay; the bodies go (an attempt on its way as this commits logs its response still).
  const responses = await sql`update attempts set response_body = null where message_id = any(${messageIds}::text[]) and response_body is not null`;
  // The Svix API's kept answer to the POST that made one, replayed for its Idempotency-Key, held the
  // payload too: it now answers as GET /app/{app}/msg/{id} does for an expunged message.
  await sql`
    update api_idempotency set body = jsonb_set(body::jsonb, '{payload}', '{"expired": true}')::text
    where message_id = any(${messageIds}::text[]) and body is not null and body::jsonb->'payload' <> '{}'::jsonb`;
  return { deliveries_canceled: canceled.count, queued_dropped: dropped.count, responses_cleared: responses.count };
}
