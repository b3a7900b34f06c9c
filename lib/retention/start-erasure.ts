import { recordAuditEvent } from "../audit/record-audit-event";
import { consumerScope, inTransaction, type Ctx } from "../context";
import { NotFoundError } from "../errors";
import { newId } from "../ids";
import { wakeErasure } from "../jobs";
import { ERASURE_COLUMNS, type ErasureRecord } from "./queries";


// An attempt in flight when the erasure began may still write its outcome until its timeout has
// passed and the outcome writer has flushed: this much after DELIVERY_TIMEOUT.
const OUTCOME_MARGIN_MS = 10_000;

/**
 * DELETE /consumers/{consumer}, its first and only synchronous step, in one short transaction:
 * the consumer disappears from every read at once and stops receiving, and its erasure is
 * recorded. Its row is kept (marked `deleted_at`), its uid freed (renamed to `erased/<id>`, which no
 * uid can be, so a new consumer may take it at once), its name, metadata, alert emails and Svix id
 * blanked; its endpoints disabled (the claim drops their queued deliveries) with their custom
 * headers, and their signing secrets, portal links and sessions deleted. The audit log gets
 * `consumer.deleted` with its id and uid only.
 *
 * The rest — messages, deliveries, attempts, rollup and alert rows, recovery runs, idempotency keys,
 * endpoints, the row itself — is erased in batches by eraseConsumer: within the request (`inline`)
 * when the consumer has at most ERASURE_INLINE_MESSAGES messages and no attempt in flight, else by
 * the worker's `erase_consumer` job, queued here. Deleting a consumer already being erased (by its
 * id: its uid is gone) answers that erasure again.
 */
export async function startErasure({ ctx, ref }: { ctx: Ctx; ref: string }): Promise<{ erasure: ErasureRecord; inline: boolean }> {
  const scope = consumerScope(ctx);
  return inTransaction(ctx, async (tx) => {
    const { sql, config } = tx;
    const [consumer] = await sql<{ id: string; uid: string; svix_id: string | null; deleted_at: Date | null }[]>`
      select id, uid, svix_id, deleted_at from consumers
      where (id = ${ref} or ((uid = ${ref} or svix_id = ${ref}) and deleted_at is null)) ${scope ? sql`and id = ${scope}` : sql``}
      order by id = ${ref} desc, uid = ${ref} desc limit 1
      for update`;
    if (!consumer) throw new NotFoundError("consumer", ref);
    if (consumer.deleted_at) {
      const [running] = await sql<ErasureRecord[]>`
        select ${sql.unsafe(ERASURE_COLUMNS)} from erasures
        where consumer_id = ${consumer.id} order by started_at desc limit 1`;
      if (!running) throw new NotFoundError("consumer", ref);
      return { erasure: running, inline: false };
    }
    const limit = config.ERASURE_INLINE_MESSAGES;
    const [{ n: messages } = { n: 0 }] = await sql<{ n: number }[]>`
      select count(*)::int as n from (select 1 from messages where consumer_id = ${consumer.id} limit ${limit + 1}) m`;
    // Endpoint rows in id order, as outcome writes lock them; claims skip locked ones, and once
    // this commits they find them disabled and drop their queued work.
    const endpoints = await sql<{ id: string }[]>`select id from endpoints where consumer_id = ${consumer.id} order by id for update`;
    const endpointIds = endpoints.map((e) => e.id);
    await sql`
      update endpoints set state = 'disabled', disabled_reason = 'consumer_deleted', disabled_at = now(), headers = '{}'::jsonb, updated_at = now()
      where id = any(${endpointIds})`;
    const [flight] = await sql<{ busy: boolean }[]>`
      select exists (select 1 from delivery_queue where endpoint_id = any(${endpointIds}) and lease_token is not null and next_attempt_at > now()) as busy`;
    const busy = Boolean(flight?.busy);
    await sql`delete from endpoint_secrets where endpoint_id = any(${endpointIds})`;
    await sql`delete from portal_sessions where consumer_id = ${consumer.id}`;
    await sql`delete from portal_tokens where consumer_id = ${consumer.id}`;
    await sql`
      update consumers set deleted_at = now(), uid = ${`erased/${consumer.id}`}, name = '', metadata = '{}'::jsonb,
        alert_emails = '{}'::text[], svix_id = null, updated_at = now()
      where id = ${consumer.id}`;
    const id = newId("erasure");
    const actor = tx.actor;
    const [erasure] = await sql<ErasureRecord[]>`
      insert into erasures (id, consumer_id, messages_total, endpoint_ids, terms, requested_by_type, requested_by_id, settles_at)
      values (${id}, ${consumer.id}, ${messages <= limit ? messages : 0}, ${endpointIds}::text[],
              ${[consumer.uid, consumer.svix_id].filter((t): t is string => !!t && t !== consumer.id)}::text[],
              ${actor.type}, ${actor.type === "system" ? null : actor.id},
              now() + ${busy ? config.DELIVERY_TIMEOUT + OUTCOME_MARGIN_MS : 0} * interval '1 millisecond')
      returning ${sql.unsafe(ERASURE_COLUMNS)}`;
    // Only the fact, its id and uid: what the consumer held (names, addresses, payloads) is erased.
    await recordAuditEvent(tx, { action: "consumer.deleted", targetType: "consumer", targetId: consumer.id, data: { uid: consumer.uid } });
    const inline = messages <= limit && !busy;
    if (!inline) await wakeErasure(sql, id);
    return { erasure: erasure!, inline };
  });
}
