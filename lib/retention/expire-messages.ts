import { inTransaction, type Ctx } from "../context";
import { deliveriesOfMessagesSql } from "../db/deliveries-of-messages";
import type { Counts } from "./counts";
import { drain } from "./drain";

/** Messages looked at per transaction: a few thousand rows locked for a few milliseconds each time. */
export const RETENTION_BATCH = 2_000;

type Cursor = { createdAt: Date; id: string };

/**
 * Removes messages older than RETENTION_PERIOD whose deliveries have all ended (succeeded, failed,
 * canceled) and none of which waits in the queue (a resend, a recovery item): each with its
 * deliveries, attempts, failed_deliveries rows and the items of finished recovery runs. A message
 * with a delivery still pending stays until it ends. An active run's item of an expired message is
 * left to its feeder, which skips it with `payload_expired`. Idempotency keys expire on their own
 * (IDEMPOTENCY_TTL).
 *
 * Oldest first, RETENTION_BATCH messages per transaction, until none is left or `deadline` passes.
 * Every lock is taken with SKIP LOCKED — the messages, then their deliveries — so the sweep never
 * waits on the worker, ingest or a resend, and none of them waits on it for longer than a batch: a
 * message whose delivery another transaction holds is simply left for the next sweep. A resend or
 * a recovery feeding a message needs a key-share lock on its row or its delivery's, which these
 * locks refuse: nothing joins a message while it is removed.
 */
export async function expireMessages({
  ctx,
  deadline,
  batchSize = RETENTION_BATCH,
}: {
  ctx: Ctx;
  deadline: number;
  batchSize?: number;
}): Promise<{ removed: Counts; more: boolean }> {
  let after: Cursor | null = null;
  return drain(
    async () => {
      const batch = await inTransaction(ctx, (tx) => expireBatch(tx, after, batchSize));
      after = batch.last ?? after;
      return batch;
    },
    batchSize,
    deadline,
  );
}

async function expireBatch(tx: Ctx, after: Cursor | null, size: number): Promise<{ seen: number; removed: Counts; last: Cursor | null }> {
  const { sql, config } = tx;
  // The oldest messages past the period, after the last batch's (a pending one is not read again
  // within a sweep), locked; one another transaction holds is skipped.
  const old = await sql<{ id: string; created_at: Date }[]>`
    select id, created_at from messages
    where created_at < now() - ${config.RETENTION_PERIOD} * interval '1 millisecond'
      ${after ? sql`and (created_at, id) > (${after.createdAt}, ${after.id})` : sql``}
    order by created_at, id
    limit ${size}
    for update skip locked`;
  if (old.length === 0) return { seen: 0, removed: {}, last: null };
  const last = { createdAt: old.at(-1)!.created_at, id: old.at(-1)!.id };
  const ids = old.map((m) => m.id);
  // Their deliveries, locked (skipping any another transaction holds), then judged under the
  // lock: a status only changes, and a queue row only joins, under the delivery's lock. (Two
  // statements: the second's snapshot is taken with the locks held.)
  const locked = new Set(
    (await sql<{ id: string }[]>`select id from deliveries where ${deliveriesOfMessagesSql(sql, ids)} order by id for update skip locked`).map((d) => d.id),
  );
  const deliveries = await sql<{ id: string; message_id: string; status: string; queued: boolean }[]>`
    select d.id, d.message_id, d.status, exists (select 1 from delivery_queue q where q.delivery_id = d.id) as queued
    from deliveries d where ${deliveriesOfMessagesSql(sql, ids, "d")}`;
  const keep = new Set(deliveries.filter((d) => !locked.has(d.id) || d.queued || d.status === "pending").map((d) => d.message_id));
  const gone = ids.filter((id) => !keep.has(id));
  if (gone.length === 0) return { seen: old.length, removed: {}, last };
  const goneSet = new Set(gone);
  const deliveryIds = deliveries.filter((d) => goneSet.has(d.message_id)).map((d) => d.id);
  const attempts = await sql`delete from attempts where message_id = any(${gone})`;
  // Items of runs that are over; an active run's own are its feeder's to skip.
  const items = await sql`
    delete from recovery_items where (recovery_id, seq) in (
      select i.recovery_id, i.seq from recovery_items i join recoveries r on r.id = i.recovery_id
      where i.message_id = any(${gone}) and r.state in ('completed', 'canceled')
      for update of i skip locked)`;
  const failed = await sql`delete from failed_deliveries where delivery_id = any(${deliveryIds})`;
  const removedDeliveries = await sql`delete from deliveries where id = any(${deliveryIds})`;
  const messages = await sql`delete from messages where id = any(${gone})`;
  return {
    seen: old.length,
    last,
    removed: {
      messages: messages.count,
      deliveries: removedDeliveries.count,
      attempts: attempts.count,
      failed_deliveries: failed.count,
      recovery_items: items.count,
    },
  };
}
