import type { Ctx } from "../context";
import { getSql } from "../db/client";
import { NotFoundError } from "../errors";
import { newId } from "../ids";
import { enqueueResend } from "../jobs";
import { findEndpointRow } from "../endpoints/queries";
import { findMessageRow } from "./queries";

/**
 * Queues a `manual` attempt of a message to one of its consumer's endpoints, whatever the
 * delivery's state (or creates the delivery, for an endpoint the message never matched). The
 * worker makes the attempt: the web app never sends a webhook itself.
 */
export async function resendMessage({ ctx, messageId, endpointId }: { ctx: Ctx; messageId: string; endpointId: string }) {
  const message = await findMessageRow(ctx, messageId);
  const endpoint = await findEndpointRow(ctx, endpointId).catch(() => null);
  if (!endpoint || endpoint.consumerId !== message.consumerId) throw new NotFoundError("endpoint of this message's consumer", endpointId);
  const sql = getSql();
  const deliveryId = await sql.begin(async (tx) => {
    const now = new Date();
    const [row] = await tx<{ id: string }[]>`
      insert into deliveries (id, message_id, endpoint_id, consumer_id, status, created_at, updated_at)
      select ${newId("delivery")}, ${message.id}, ${endpoint.id}, ${message.consumerId}, 'failed', ${now}::timestamptz, ${now}::timestamptz
      where not exists (select 1 from deliveries where message_id = ${message.id} and endpoint_id = ${endpoint.id})
      returning id`;
    const id =
      row?.id ??
      (await tx<{ id: string }[]>`select id from deliveries where message_id = ${message.id} and endpoint_id = ${endpoint.id} limit 1`)[0]!.id;
    await enqueueResend(tx, { delivery_id: id, trigger: "manual" });
    return id;
  });
  return { delivery_id: deliveryId, message_id: message.id, endpoint_id: endpoint.id, trigger: "manual" as const, status: "queued" as const };
}
