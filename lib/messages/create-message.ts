import { getConfig } from "../config";
import { consumerScope, type Ctx } from "../context";
import { sha256Hex } from "../crypto/encryption";
import { getSql } from "../db/client";
import { isForeignKeyViolation, isRetryableConflict } from "../db/errors";
import { retryOnConflict } from "../db/retry";
import { ConflictError, NotFoundError, PayloadTooLargeError } from "../errors";
import { newId } from "../ids";
import { notifyDue, wakeDeliveries } from "../jobs";
import type { CreateMessageInput, MessageAccepted } from "./schemas";

export type CreateMessageResult = { message: MessageAccepted; replayed: boolean };

type Args = {
  ctx: Ctx;
  input: CreateMessageInput;
  idempotencyKey?: string;
  /** A test send: this one endpoint gets it, whatever event types it filters on, marked as a test. */
  onlyEndpointId?: string;
};

/**
 * Ingest. One transaction holds the message (its payload serialized once: the exact bytes every
 * attempt sends), one delivery per matching active endpoint, and the job that wakes a worker — so
 * a committed message is always delivered and a failed request leaves nothing behind.
 */
export function createMessage(args: Args): Promise<CreateMessageResult> {
  // An endpoint or the consumer deleted between the read of the targets and the insert fails the
  // insert's foreign key: read them again (the consumer gone is then a 404).
  return retryOnConflict(() => ingest(args), (error) => isRetryableConflict(error) || isForeignKeyViolation(error));
}

async function ingest({ ctx, input, idempotencyKey, onlyEndpointId }: Args): Promise<CreateMessageResult> {
  const config = getConfig();
  const payload = JSON.stringify(input.payload);
  if (Buffer.byteLength(payload) > config.MAX_PAYLOAD_BYTES) throw new PayloadTooLargeError(config.MAX_PAYLOAD_BYTES);
  const sql = getSql();
  const scope = consumerScope(ctx);

  // The consumer and its matching endpoints in one round trip, before the transaction opens.
  // The time comes from the database's clock, as the claim's does: a web host running ahead would
  // otherwise make new work look due later than it is.
  const targets = await sql<{ consumer_id: string; endpoint_id: string | null; now: Date }[]>`
    select c.id as consumer_id, e.id as endpoint_id, now()
    from (select id from consumers where (id = ${input.consumer} or uid = ${input.consumer})
            ${scope ? sql`and id = ${scope}` : sql``}
          order by id = ${input.consumer} desc limit 1) c
    left join endpoints e on e.consumer_id = c.id and e.state = 'active'
      and ${onlyEndpointId ? sql`e.id = ${onlyEndpointId}` : sql`(e.event_types is null or ${input.event_type} = any(e.event_types))`}
    -- The deliveries' inserts take a key-share lock on each endpoint row in this order: id order,
    -- as the worker's outcome writes lock endpoint rows, or the two could deadlock.
    order by e.id`;
  const consumerId = targets[0]?.consumer_id;
  if (!consumerId) throw new NotFoundError("consumer", input.consumer);
  const endpointIds = targets.flatMap((t) => (t.endpoint_id ? [t.endpoint_id] : []));

  const now = targets[0]!.now;
  const message: MessageAccepted = {
    id: newId("message", now.getTime()),
    consumer_id: consumerId,
    event_type: input.event_type,
    event_id: input.event_id ?? null,
    created_at: now.toISOString(),
    deliveries: endpointIds.length,
  };
  const firstDelay = config.DELIVERY_SCHEDULE[0] ?? 0;
  const firstAttemptAt = new Date(now.getTime() + firstDelay);
  const requestHash = sha256Hex(JSON.stringify([consumerId, input.event_type, input.event_id ?? null, payload]));

  return sql.begin(async (tx) => {
    if (idempotencyKey) {
      // The insert takes the key's lock: a concurrent request with the same key waits here until
      // this transaction ends, then replays its answer. An expired key is taken over.
      const claimed = await tx`
        insert into idempotency_keys (key, request_hash, message_id, response, created_at, expires_at)
        values (${idempotencyKey}, ${requestHash}, ${message.id}, ${tx.json(message)}, ${now}::timestamptz,
                ${new Date(now.getTime() + config.IDEMPOTENCY_TTL)}::timestamptz)
        on conflict (key) do update set request_hash = excluded.request_hash, message_id = excluded.message_id,
          response = excluded.response, created_at = excluded.created_at, expires_at = excluded.expires_at
        where idempotency_keys.expires_at <= now()
        returning key`;
      if (claimed.length === 0) {
        const [existing] = await tx<{ request_hash: string; response: MessageAccepted }[]>`
          select request_hash, response from idempotency_keys where key = ${idempotencyKey}`;
        if (existing!.request_hash !== requestHash) {
          throw new ConflictError("idempotency_conflict", "This Idempotency-Key was already used with a different request body.");
        }
        return { message: existing!.response, replayed: true };
      }
    }
    const writes = [
      tx`insert into messages (id, consumer_id, event_type, event_id, payload, is_test, created_at)
         values (${message.id}, ${consumerId}, ${input.event_type}, ${message.event_id}, ${payload}, ${Boolean(onlyEndpointId)}, ${now}::timestamptz)`,
    ];
    if (endpointIds.length > 0) {
      writes.push(
        tx`with d as (
             insert into deliveries (id, message_id, endpoint_id, consumer_id, status, next_attempt_at, created_at, updated_at)
             select unnest(${endpointIds.map(() => newId("delivery", now.getTime()))}::text[]), ${message.id},
                    unnest(${endpointIds}::text[]), ${consumerId}, 'pending', ${firstAttemptAt}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
             returning id, endpoint_id, next_attempt_at)
           insert into delivery_queue (delivery_id, endpoint_id, next_attempt_at) select id, endpoint_id, next_attempt_at from d`,
        firstDelay <= 0 ? notifyDue(tx) : wakeDeliveries(tx, firstAttemptAt.getTime()),
      );
    }
    await Promise.all(writes);
    return { message, replayed: false };
  });
}
