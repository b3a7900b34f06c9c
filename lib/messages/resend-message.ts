import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { deliveriesOfMessageSql } from "../db/deliveries-of-messages";
import { ConflictError, NotFoundError } from "../errors";
import { deliveryIdFor } from "../ids";
import { notifyDue } from "../jobs";
import { QUEUE_KINDS } from "../db/schema/messages";
import { findEndpointRow } from "../endpoints/queries";
import { POLLING_KIND } from "../destinations";
import { findMessageRow } from "./queries";

/**
 * Queues a `manual` attempt of a message to one of its consumer's endpoints, whatever the
 * delivery's state (or creates the delivery, for an endpoint the message never matched). It waits
 * in the delivery queue like every attempt and leaves it through the claim, within the endpoint's
 * cap, rate limit and circuit — after the endpoint's live traffic. A resend already waiting is not
 * queued twice. The web app never sends a webhook itself.
 */
export async function resendMessage({ ctx, messageId, endpointId }: { ctx: Ctx; messageId: string; endpointId: string }) {
  const message = await findMessageRow(ctx, messageId);
  if (message.payloadExpungedAt) throw payloadExpunged(message.payloadExpungedAt);
  const endpoint = await findEndpointRow(ctx, endpointId).catch(() => null);
  if (!endpoint || endpoint.consumerId !== message.consumerId) throw new NotFoundError("endpoint of this message's consumer", endpointId);
  if (endpoint.destination === POLLING_KIND) {
    throw new ConflictError("polling_endpoint", "A polling endpoint is read by its consumer: nothing is sent to it. Its consumer reads the message again by polling from an earlier cursor.");
  }
  if (endpoint.state !== "active") {
    throw new ConflictError("endpoint_not_active", `The endpoint is ${endpoint.state.replace("_", " ")}; enable it before resending to it.`);
  }
  // An ordered endpoint's lines are for scheduled work: a resend is asked for now, and says it goes out of order.
  const outOfOrder = endpoint.ordering === "ordered";
  const deliveryId = await inTransaction(ctx, async (tx) => {
    const sql = tx.sql;
    // Key-share locked before anything is queued: an expunge or the retention sweep holding the
    // message is waited for, and a message gone or expunged meanwhile is refused here.
    const [held] = await sql<{ payload_expunged_at: Date | null }[]>`select payload_expunged_at from messages where id = ${message.id} for key share`;
    if (!held) throw new NotFoundError("message", messageId);
    if (held.payload_expunged_at) throw payloadExpunged(held.payload_expunged_at);
    const mine = deliveriesOfMessageSql(sql, message.id);
    const [made] = await sql<{ id: string }[]>`
      with made as (
        insert into deliveries (id, message_id, endpoint_id, consumer_id, status)
        values (${deliveryIdFor(message.id)}, ${message.id}, ${endpoint.id}, ${message.consumerId}, 'failed')
        -- The message's partition's unique (message_id, endpoint_id) index is the arbiter (deliveries
        -- are partitioned: no index of the parent can name those columns).
        on conflict do nothing
        returning id
      )
      select id from made union all select id from deliveries where ${mine} and endpoint_id = ${endpoint.id}
      limit 1`;
    // A resend racing this one made the delivery after this statement's snapshot was taken (the
    // insert waited for it, then did nothing): the next statement sees it.
    const [row] = made ? [made] : await sql<{ id: string }[]>`select id from deliveries where ${mine} and endpoint_id = ${endpoint.id}`;
    await sql`
      insert into delivery_queue (delivery_id, kind, endpoint_id, consumer_id, next_attempt_at)
      values (${row!.id}, webhook_admin_queue_kind('manual'), ${endpoint.id}, ${message.consumerId}, date_trunc('milliseconds', now()))
      on conflict (delivery_id, kind) do nothing`;
    await recordAuditEvent(tx, { action: "message.resent", targetType: "message", targetId: message.id, data: { endpoint_id: endpoint.id, ...(outOfOrder ? { out_of_order: true } : {}) } });
    await notifyDue(sql, [QUEUE_KINDS.manual]);
    return row!.id;
  });
  return { delivery_id: deliveryId, message_id: message.id, endpoint_id: endpoint.id, trigger: "manual" as const, status: "queued" as const, out_of_order: outOfOrder };
}

/** A message whose payload was expunged can never be sent again (lib/retention/expunge-payload.ts). */
function payloadExpunged(at: Date): ConflictError {
  return new ConflictError("payload_expunged", `This message's payload was expunged at ${at.toISOString()}: it can no longer be sent.`);
}
