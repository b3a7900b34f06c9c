import type { Ctx } from "../context";
import type { Sql } from "../db/client";
import { idBoundAt } from "../ids";
import { addCounts, type Counts } from "./counts";
import { DAY_MS, dayPartitions, detachAndDrop, dropPartition, isRetryable, type DayPartition, type DropTiming } from "./partitions";

/** Rows removed per statement while a day's messages are cleared of what refers to them. */
export const PARTITION_BATCH = 5_000;

/**
 * Drops whole day partitions past their retention, oldest first, until `deadline`:
 *
 * - a day of messages once the day ended RETENTION_PERIOD ago and none of its messages has a
 *   delivery pending or queued, with that day of deliveries: the deliveries of its messages in the
 *   default partition (made before deliveries were partitioned, or before their day was) are
 *   deleted in batches, with their failed_deliveries rows and the items of finished
 *   recovery runs, and so are the attempts of its messages that later days' partitions hold
 *   (retries after midnight, resends); then the day of deliveries is detached with its
 *   failed_deliveries rows deleted in the same transaction (PostgreSQL checks that no queue row
 *   refers to it, so a resend that slipped in makes it wait for the next sweep) and dropped, and
 *   so is the day of messages (checked likewise against deliveries);
 * - a day of attempts once no message older than the day's end is left (an attempt is made after
 *   its message, so every message it belongs to is gone);
 * - a day of audit events, or of alerts (none still being sent), once it ended AUDIT_RETENTION ago.
 *
 * What is left in a partly expired day, and in the default partition, is the batched retention's.
 */
export async function dropExpiredPartitions({
  ctx,
  deadline,
  now = Date.now(),
}: {
  ctx: Ctx;
  deadline: number;
  now?: number;
}): Promise<{ removed: Counts; more: boolean; timings: DropTiming[] }> {
  const timings: DropTiming[] = [];
  const sql = ctx.sql as Sql;
  const { config } = ctx;
  const removed: Counts = {};
  const count = (key: string, n: number) => addCounts(removed, { [key]: n });
  const past = (p: DayPartition, retention: number) => p.day + DAY_MS <= now - retention;

  const deliveryDays = new Map((await dayPartitions(sql, "deliveries")).map((d) => [d.day, d]));
  for (const p of await dayPartitions(sql, "messages")) {
    if (!past(p, config.RETENTION_PERIOD)) break;
    if (Date.now() >= deadline) return { removed, more: true, timings };
    // A delivery of the day's messages is in the day's partition of deliveries (its id is its
    // message's millisecond: ids of the day) or in the default partition (made before migration
    // 0019, or before its day's partition was). Each is read by itself — the day by its ids, which
    // prunes to that one partition — rather than every day's index by message_id.
    const ofDay = sql`d.message_id >= ${p.from} and d.message_id < ${p.to}`;
    const inDay = sql`${ofDay} and d.id >= ${idBoundAt("dlv", p.day)} and d.id < ${idBoundAt("dlv", p.day + DAY_MS)}`;
    const [busy] = await sql<{ busy: boolean }[]>`
      select exists (select 1 from delivery_queue q join deliveries d on d.id = q.delivery_id where ${inDay})
          or exists (select 1 from delivery_queue q join deliveries_default d on d.id = q.delivery_id where ${ofDay})
          or exists (select 1 from deliveries d where ${inDay} and d.status = 'pending')
          or exists (select 1 from deliveries_default d where ${ofDay} and d.status = 'pending') as busy`;
    if (busy?.busy) continue;
    const dp = deliveryDays.get(p.day);
    let left = true;
    while (left) {
      if (Date.now() >= deadline) return { removed, more: true, timings };
      left = await sql.begin(async (tx) => {
        const ids = (
          await tx<{ id: string }[]>`
            select d.id from deliveries_default d where ${ofDay} order by d.message_id limit ${PARTITION_BATCH} for update skip locked`
        ).map((d) => d.id);
        if (ids.length === 0) return false;
        count("failed_deliveries", (await tx`delete from failed_deliveries where delivery_id = any(${ids})`).count);
        // Under the batch's locks nothing joins these deliveries; one that is pending or queued
        // after all (a resend between the check and the lock) stays, and so does its day.
        count("deliveries", (await tx`
          delete from deliveries_default d where d.id = any(${ids}) and d.status <> 'pending'
            and not exists (select 1 from delivery_queue q where q.delivery_id = d.id)`).count);
        return ids.length === PARTITION_BATCH;
      });
    }
    count("recovery_items", (await sql`
      delete from recovery_items where (recovery_id, seq) in (
        select i.recovery_id, i.seq from recovery_items i join recoveries r on r.id = i.recovery_id
        where i.message_id >= ${p.from} and i.message_id < ${p.to} and r.state in ('completed', 'canceled'))`).count);
    // The day's messages' attempts in later days' partitions.
    const laterAttempts = idBoundAt("att", p.day + DAY_MS);
    for (;;) {
      const done = await sql`
        delete from attempts where id in (
          select id from attempts where message_id >= ${p.from} and message_id < ${p.to} and id >= ${laterAttempts} limit ${PARTITION_BATCH})`;
      count("attempts", done.count);
      if (done.count < PARTITION_BATCH) break;
      if (Date.now() >= deadline) return { removed, more: true, timings };
    }
    if (dp) {
      const [dRows] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(dp.name)}`;
      let failed = 0;
      try {
        await detachAndDrop(sql, "deliveries", dp.name, timings, async (tx) => {
          failed = (await tx`delete from failed_deliveries where delivery_id >= ${dp.from} and delivery_id < ${dp.to}`).count;
        });
        count("deliveries", dRows!.n);
        count("failed_deliveries", failed);
        count("partitions", 1);
      } catch (error) {
        if (!isRetryable(error)) throw error;
        continue;
      }
    }
    const [rows] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(p.name)}`;
    try {
      await detachAndDrop(sql, "messages", p.name, timings);
      count("messages", rows!.n);
      count("partitions", 1);
    } catch (error) {
      // A lock not granted in time, or a delivery that joined the day meanwhile: the next sweep.
      if (!isRetryable(error)) throw error;
    }
  }

  const [oldest] = await sql<{ id: string | null }[]>`select min(id) as id from messages`;
  for (const p of await dayPartitions(sql, "attempts")) {
    if (!past(p, config.RETENTION_PERIOD) || Date.now() >= deadline) break;
    if (oldest?.id != null && oldest.id < idBoundAt("msg", p.day + DAY_MS)) break;
    await dropPartition(sql, "attempts", p.name, removed, timings);
  }

  for (const table of ["audit_events", "alerts"] as const) {
    for (const p of await dayPartitions(sql, table)) {
      if (!past(p, config.AUDIT_RETENTION) || Date.now() >= deadline) break;
      if (table === "alerts" && (await sql`select 1 from ${sql(p.name)} where status = 'pending' limit 1`).length > 0) break;
      await dropPartition(sql, table, p.name, removed, timings);
    }
  }
  return { removed, more: Date.now() >= deadline, timings };
}
