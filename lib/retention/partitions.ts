import type { Ctx } from "../context";
import type { Sql } from "../db/client";
import { idBoundAt, idTime } from "../ids";
import { addCounts, type Counts } from "./counts";

/*
 * Time partitions (ADR 0034). messages, deliveries, attempts, audit_events and alerts are
 * partitioned by RANGE (id) (migrations 0017 and 0019): an id begins with the millisecond it was
 * made in, so one UTC day is one range of ids, [prefix_<day's first ms>, prefix_<next day's first
 * ms>). A delivery's id takes its message's millisecond (lib/ids.ts deliveryIdFor), so a message's
 * deliveries are in the message's day. Each table has a
 * DEFAULT partition, `<table>_default` — on an upgraded install the table as it was — that takes
 * any row no day partition covers; the sweep makes the days ahead of time so that none lands there,
 * and the batched retention (expire-messages.ts, trim-audit-log.ts) empties it.
 */

export const DAY_MS = 86_400_000;
/** Days made ahead of today: a worker may be down this long before rows fall to the default partition. */
export const PARTITIONS_AHEAD = 3;
/**
 * Days made ahead at once when the default partition holds rows (an upgraded install's history, for
 * RETENTION_PERIOD): each extension then validates a constraint over all of them (a scan, online),
 * so it is done every eleven days or so rather than every day.
 */
export const PROVEN_AHEAD = 14;
/** A new day partition starts at least this far in the future when the default partition holds rows (see makePartitions). */
export const PARTITION_LEAD_MS = 10 * 60_000;
/**
 * How long a partition change waits for a lock before it gives up until the next sweep. Below
 * PostgreSQL's deadlock_timeout (1 s by default): a detach takes locks one after another (the
 * parent, the default partition, then the tables whose foreign keys name the partition), so it can
 * close a cycle with a claim or a read that takes the same tables in another order; it then gives
 * up itself before the deadlock detector would cancel the other side.
 */
export const PARTITION_LOCK_TIMEOUT = "500ms";

export const PARTITIONED = [
  { table: "messages", prefix: "msg" },
  { table: "deliveries", prefix: "dlv" },
  { table: "attempts", prefix: "att" },
  { table: "audit_events", prefix: "aud" },
  { table: "alerts", prefix: "alr" },
] as const;
export type PartitionedTable = (typeof PARTITIONED)[number]["table"];

const prefixOf = (table: PartitionedTable) => PARTITIONED.find((p) => p.table === table)!.prefix;
export const startOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const dayName = (table: string, day: number) => `${table}_p${new Date(day).toISOString().slice(0, 10).replace(/-/g, "")}`;
export const defaultPartition = (table: PartitionedTable) => `${table}_default`;
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export type DayPartition = { name: string; day: number; from: string; to: string };

/** The day partitions of a table, oldest first (the default partition is not one of them). */
export async function dayPartitions(sql: Sql, table: PartitionedTable): Promise<DayPartition[]> {
  const rows = await sql<{ name: string }[]>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${table}::regclass and c.relname ~ ${`^${table}_p[0-9]{8}$`} order by c.relname`;
  const prefix = prefixOf(table);
  return rows.map(({ name }) => {
    const d = name.slice(-8);
    const day = Date.UTC(Number(d.slice(0, 4)), Number(d.slice(4, 6)) - 1, Number(d.slice(6, 8)));
    return { name, day, from: idBoundAt(prefix, day), to: idBoundAt(prefix, day + DAY_MS) };
  });
}

/**
 * What a day of deliveries carries of its own (migration 0019): the unique (message_id,
 * endpoint_id) index, the arbiter of resends and recoveries, which the parent cannot have (it lacks
 * the partition key). Made on the new, empty table before it is attached. (No foreign key to
 * messages: see migration 0019.)
 */
async function prepareDay(sql: Sql, table: PartitionedTable, name: string): Promise<void> {
  if (table !== "deliveries") return;
  await sql.unsafe(`create unique index if not exists ${ident(`${name}_message_endpoint_idx`)} on ${ident(name)} (message_id, endpoint_id)`);
}

/**
 * Makes one day's partition of `table` and attaches it; the default partition must hold none of its
 * rows (makeTablePartitions proves it first). Returns its name.
 */
export async function attachDay(sql: Sql, table: PartitionedTable, day: number): Promise<string> {
  const prefix = prefixOf(table);
  const name = dayName(table, day);
  await sql.unsafe(`create table if not exists ${ident(name)} (like ${ident(table)} including defaults including storage including compression)`);
  await prepareDay(sql, table, name);
  // ATTACH takes a lock on the parent that lets reads and writes go on (CREATE TABLE … PARTITION
  // OF would stop them); the new, empty table gets the parent's indexes and keys.
  await briefly(sql, (tx) =>
    tx.unsafe(`alter table ${ident(table)} attach partition ${ident(name)} for values from ('${idBoundAt(prefix, day)}') to ('${idBoundAt(prefix, day + DAY_MS)}')`),
  );
  return name;
}

/** Runs `work` in a transaction whose lock waits end after PARTITION_LOCK_TIMEOUT. */
async function briefly<T>(sql: Sql, work: (tx: Sql) => Promise<T>): Promise<T> {
  return (await sql.begin(async (tx) => {
    await tx.unsafe(`set local lock_timeout = '${PARTITION_LOCK_TIMEOUT}'`);
    return work(tx as unknown as Sql);
  })) as T;
}

/**
 * Makes the day partitions of every partitioned table up to PARTITIONS_AHEAD days after today
 * (PROVEN_AHEAD at once when the default partition holds rows).
 *
 * A new partition must not cover a row of the default partition (PostgreSQL checks, scanning the
 * default under an ACCESS EXCLUSIVE lock). When the default is empty (a new install) the days start
 * today and the check is instant. When it holds rows (an upgraded install: all its history) the
 * days start at the first midnight both after its newest row and PARTITION_LEAD_MS from now (rows
 * made until then still fall to the default), and the check is proven instead of scanned: a CHECK
 * (id < first OR id >= end) is added to the default NOT VALID (a brief lock), validated (a scan
 * under a lock that lets reads and writes go on), the partitions are attached (PostgreSQL sees the
 * constraint and does not scan), and the constraint is dropped again. That validation reads every
 * row of the default partition, so while it holds rows the days are made PROVEN_AHEAD at once.
 * Returns the partitions made.
 */
export async function makePartitions(ctx: Ctx, { now = Date.now() }: { now?: number } = {}): Promise<string[]> {
  const sql = ctx.sql as Sql;
  const made: string[] = [];
  for (const { table, prefix } of PARTITIONED) {
    try {
      made.push(...(await makeTablePartitions(sql, table, prefix, now)));
    } catch (error) {
      // A lock not granted in time: the next sweep goes on (the days are made days ahead).
      if (!isRetryable(error)) throw error;
    }
  }
  return made;
}

async function makeTablePartitions(sql: Sql, table: PartitionedTable, prefix: string, now: number): Promise<string[]> {
  const made: string[] = [];
  const deflt = defaultPartition(table);
  const bound = `${deflt}_bound`;
  // A bound left by a sweep cut off halfway: harmless until its first day comes, gone now. (Looked
  // up first: the drop takes an ACCESS EXCLUSIVE lock on the default partition, which every
  // unpruned read of the table goes through.)
  const [left] = await sql`select 1 from pg_constraint where conrelid = ${deflt}::regclass and conname = ${bound}`;
  if (left) await briefly(sql, (tx) => tx.unsafe(`alter table ${ident(deflt)} drop constraint if exists ${ident(bound)}`));
  const days = await dayPartitions(sql, table);
  const due = startOfDay(now) + (PARTITIONS_AHEAD + 1) * DAY_MS;
  let first = days.length > 0 ? days.at(-1)!.day + DAY_MS : startOfDay(now);
  if (first >= due) return made;
  const [newest] = await sql<{ id: string | null }[]>`select max(id) as id from only ${sql(deflt)}`;
  const occupied = newest?.id != null;
  const end = occupied ? startOfDay(now) + (PROVEN_AHEAD + 1) * DAY_MS : due;
  if (occupied) {
    // The default holds rows: start after its newest, and far enough ahead that no row made
    // while this runs can fall in the new days (the bound constraint would refuse it).
    first = Math.max(first, startOfDay(Math.max(idTime(newest!.id!), now + PARTITION_LEAD_MS)) + DAY_MS);
  }
  if (first >= end) return made;
  const from = idBoundAt(prefix, first);
  const to = idBoundAt(prefix, end);
  if (occupied) {
    await briefly(sql, (tx) =>
      tx.unsafe(`alter table ${ident(deflt)} add constraint ${ident(bound)} check (id < '${from}' or id >= '${to}') not valid`),
    );
    await sql.unsafe(`alter table ${ident(deflt)} validate constraint ${ident(bound)}`);
  }
  try {
    for (let day = first; day < end; day += DAY_MS) made.push(await attachDay(sql, table, day));
  } finally {
    if (occupied) await briefly(sql, (tx) => tx.unsafe(`alter table ${ident(deflt)} drop constraint if exists ${ident(bound)}`));
  }
  return made;
}

/** How long a day's detach (an ACCESS EXCLUSIVE lock on the parent) and its drop took, lock waits included. */
export type DropTiming = { table: string; name: string; detachMs: number; dropMs: number };

/**
 * Detaches a partition and drops it, each step waiting at most PARTITION_LOCK_TIMEOUT for its lock.
 * `before` runs in the detach's transaction, first: what must go with the partition or not at all.
 */
async function detachAndDrop(sql: Sql, table: string, name: string, timings: DropTiming[], before?: (tx: Sql) => Promise<void>): Promise<void> {
  const started = performance.now();
  // Not CONCURRENTLY: PostgreSQL refuses it on a table with a default partition. The plain detach
  // holds an ACCESS EXCLUSIVE lock on the parent for a catalog change (docs/benchmarks.md measures it).
  await briefly(sql, async (tx) => {
    await before?.(tx);
    await tx.unsafe(`alter table ${ident(table)} detach partition ${ident(name)}`);
  });
  const detached = performance.now();
  await briefly(sql, (tx) => tx.unsafe(`drop table if exists ${ident(name)}`));
  timings.push({ table, name, detachMs: detached - started, dropMs: performance.now() - detached });
}

/** Rows removed per statement while a day's messages are cleared of what refers to them. */
export const PARTITION_BATCH = 5_000;

/**
 * Drops whole day partitions past their retention, oldest first, until `deadline`:
 *
 * - a day of messages once the day ended RETENTION_PERIOD ago and none of its messages has a
 *   delivery pending or queued, with that day of deliveries: the deliveries of its messages held
 *   elsewhere (the default partition: made before deliveries were partitioned, or before their
 *   day was) are deleted in batches, with their failed_deliveries rows and the items of finished
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
export async function dropExpiredPartitions(
  ctx: Ctx,
  { deadline, now = Date.now() }: { deadline: number; now?: number },
): Promise<{ removed: Counts; more: boolean; timings: DropTiming[] }> {
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
    const [busy] = await sql<{ busy: boolean }[]>`
      select exists (select 1 from delivery_queue q join deliveries d on d.id = q.delivery_id
                     where d.message_id >= ${p.from} and d.message_id < ${p.to})
          or exists (select 1 from deliveries d where d.message_id >= ${p.from} and d.message_id < ${p.to} and d.status = 'pending') as busy`;
    if (busy?.busy) continue;
    const dp = deliveryDays.get(p.day);
    let left = true;
    while (left) {
      if (Date.now() >= deadline) return { removed, more: true, timings };
      left = await sql.begin(async (tx) => {
        const ids = (
          await tx<{ id: string }[]>`
            select id from deliveries where message_id >= ${p.from} and message_id < ${p.to}
              ${dp ? sql`and (id < ${dp.from} or id >= ${dp.to})` : sql``}
            order by message_id limit ${PARTITION_BATCH} for update skip locked`
        ).map((d) => d.id);
        if (ids.length === 0) return false;
        count("failed_deliveries", (await tx`delete from failed_deliveries where delivery_id = any(${ids})`).count);
        // Under the batch's locks nothing joins these deliveries; one that is pending or queued
        // after all (a resend between the check and the lock) stays, and so does its day.
        count("deliveries", (await tx`
          delete from deliveries d where d.id = any(${ids}) and d.status <> 'pending'
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
    const [rows] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(p.name)}`;
    await dropIfFree(sql, "attempts", p.name, timings, () => (count("attempts", rows!.n), count("partitions", 1)));
  }

  for (const table of ["audit_events", "alerts"] as const) {
    for (const p of await dayPartitions(sql, table)) {
      if (!past(p, config.AUDIT_RETENTION) || Date.now() >= deadline) break;
      const [rows] = await sql<{ n: number; pending: number }[]>`
        select count(*)::int as n, count(*) filter (where ${table === "alerts" ? sql`status = 'pending'` : sql`false`})::int as pending from ${sql(p.name)}`;
      if (rows!.pending > 0) break;
      await dropIfFree(sql, table, p.name, timings, () => (count(table, rows!.n), count("partitions", 1)));
    }
  }
  return { removed, more: Date.now() >= deadline, timings };
}

async function dropIfFree(sql: Sql, table: string, name: string, timings: DropTiming[], done: () => void): Promise<void> {
  try {
    await detachAndDrop(sql, table, name, timings);
    done();
  } catch (error) {
    if (!isRetryable(error)) throw error;
  }
}

/** lock_not_available (a lock not granted within PARTITION_LOCK_TIMEOUT), foreign_key_violation (a row refers to the day). */
function isRetryable(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === "55P03" || code === "23503";
}
