import type { Ctx } from "../context";
import type { Sql } from "../db/client";
import { isForeignKeyViolation, isLockNotAvailable } from "../db/errors";
import { ID_PREFIXES, idBoundAt, idTime } from "../ids";
import { addCounts, type Counts } from "./counts";

/*
 * Time partitions (ADR 0034). messages, deliveries, attempts, audit_events and alerts are
 * partitioned by RANGE (id) (migrations 0017 and 0019): an id begins with the millisecond it was
 * made in, so one UTC day is one range of ids, [prefix_<day's first ms>, prefix_<next day's first
 * ms>). A delivery's id takes its message's millisecond (lib/ids.ts deliveryIdFor), so a message's
 * deliveries are in the message's day. recovery_items is partitioned by RANGE (recovery_id), a UTC
 * week of runs each, and attempt_stats by RANGE (bucket_seconds, t), a UTC day of minute rows or a
 * UTC month of hourly rows each (migration 0020). Each table has a DEFAULT partition,
 * `<table>_default` — on an upgraded install the table as it was — that takes any row no partition
 * covers; the sweep makes the partitions ahead of time so that none lands there, and the batched
 * retention (expire-messages.ts, trim-audit-log.ts, trim-rollup.ts, expire-recoveries.ts) empties it.
 * Whole partitions past their retention are dropped by drop-expired-partitions.ts (the days of
 * messages and what goes with them), trim-rollup.ts and expire-recoveries.ts, with dropPartition.
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
/** A new partition starts at least this far in the future when the default partition holds rows (see makePartitions). */
export const PARTITION_LEAD_MS = 10 * 60_000;
/**
 * How long a partition change waits for a lock before it gives up until the next sweep. Below
 * PostgreSQL's deadlock_timeout (1 s by default), so that a change that closes a cycle with another
 * transaction gives up itself before the deadlock detector would cancel the other side.
 */
export const PARTITION_LOCK_TIMEOUT = "500ms";
/**
 * The lock waits of an attach or a detach: writes in flight finish while every later write of the
 * table waits behind it, so a few short tries in a sweep, not one long wait (with its locks taken
 * in order, no cycle needs the timeout to end it).
 */
const CHANGE_LOCKS = { timeout: "100ms", tries: 5 };

/** The tables partitioned by their id, a UTC day each. */
export const PARTITIONED = [
  { table: "messages", prefix: "msg" },
  { table: "deliveries", prefix: "dlv" },
  { table: "attempts", prefix: "att" },
  { table: "audit_events", prefix: "aud" },
  { table: "alerts", prefix: "alr" },
] as const;
export type PartitionedTable = (typeof PARTITIONED)[number]["table"];

type Width = "day" | "week" | "month";

/**
 * One run of time partitions of a table: its rows of one kind (all of them, or the rollup's rows of
 * one bucket size), one partition per `width`, named `<table>_<tag>YYYYMMDD` after its first day.
 */
export type Series = {
  table: string;
  tag: string;
  width: Width;
  /** The partition bound at `ms`, as FOR VALUES FROM (…) TO (…) takes it. */
  bound: (ms: number) => string;
  /** A CHECK of the default partition: none of its rows belongs to the series in [from, to). */
  outside: (from: number, to: number) => string;
  /** The time of the default partition's newest row of the series, or null when it holds none. */
  newest: (sql: Sql) => Promise<number | null>;
};

/** A partition of a series: its name and the times it holds, [start, end). */
export type Span = { name: string; start: number; end: number };

export const startOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const startOf = (width: Width, ms: number): number => {
  if (width === "day") return startOfDay(ms);
  const d = new Date(ms);
  // A week starts on Monday (getUTCDay: 0 is Sunday).
  if (width === "week") return startOfDay(ms) - ((d.getUTCDay() + 6) % 7) * DAY_MS;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};
const endOf = (width: Width, start: number): number => {
  if (width === "day") return start + DAY_MS;
  if (width === "week") return start + 7 * DAY_MS;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const defaultPartition = (table: string) => `${table}_default`;

/** Rows whose `key` column is an id made in the series' time: messages' days, recovery runs' weeks. */
function byId(table: string, prefix: string, key: string, width: Width): Series {
  return {
    table,
    tag: "p",
    width,
    bound: (ms) => `'${idBoundAt(prefix, ms)}'`,
    outside: (from, to) => `${ident(key)} < '${idBoundAt(prefix, from)}' or ${ident(key)} >= '${idBoundAt(prefix, to)}'`,
    newest: async (sql) => {
      const [row] = await sql<{ id: string | null }[]>`select max(${sql(key)}) as id from only ${sql(defaultPartition(table))}`;
      return row?.id == null ? null : idTime(row.id);
    },
  };
}

/** The rollup's rows of one bucket size, by their bucket's time. */
function rollup(bucketSeconds: number, tag: string, width: Width): Series {
  const at = (ms: number) => `'${new Date(ms).toISOString()}'`;
  return {
    table: "attempt_stats",
    tag,
    width,
    bound: (ms) => `${bucketSeconds}, ${at(ms)}`,
    outside: (from, to) => `bucket_seconds <> ${bucketSeconds} or t < ${at(from)} or t >= ${at(to)}`,
    newest: async (sql) => {
      const [row] = await sql<{ t: Date | null }[]>`
        select max(t) as t from only attempt_stats_default where bucket_seconds = ${bucketSeconds}`;
      return row?.t == null ? null : row.t.getTime();
    },
  };
}

const BY_ID: Record<PartitionedTable, Series> = Object.fromEntries(PARTITIONED.map(({ table, prefix }) => [table, byId(table, prefix, "id", "day")])) as Record<
  PartitionedTable,
  Series
>;
/**
 * Minute rows, a UTC day each: about 1,440 rows per scope a day, kept STATS_MINUTE_RETENTION (8
 * days). Hourly rows, a UTC month each: 24 rows per scope a day, kept STATS_RETENTION (400 days), so
 * a day each would be 400 partitions for every week's chart to plan; a month is 14.
 */
export const ROLLUP_MINUTES = rollup(60, "m", "day");
export const ROLLUP_HOURS = rollup(3600, "h", "month");
/**
 * Recovery items, a UTC week of runs each: runs are few (an operator's resend after an outage), and
 * a new run's check for items an active run holds reads each partition's index by message.
 */
export const RECOVERY_WEEKS = byId("recovery_items", ID_PREFIXES.recovery, "recovery_id", "week");

/** Every series the sweep makes partitions for. */
export const SERIES: Series[] = [...Object.values(BY_ID), ROLLUP_MINUTES, ROLLUP_HOURS, RECOVERY_WEEKS];

/** The partitions of a series, oldest first (the default partition is not one of them). */
export async function partitionsOf(sql: Sql, series: Series): Promise<Span[]> {
  const rows = await sql<{ name: string }[]>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${series.table}::regclass and c.relname ~ ${`^${series.table}_${series.tag}[0-9]{8}$`} order by c.relname`;
  return rows.map(({ name }) => {
    const d = name.slice(-8);
    const start = Date.UTC(Number(d.slice(0, 4)), Number(d.slice(4, 6)) - 1, Number(d.slice(6, 8)));
    return { name, start, end: endOf(series.width, start) };
  });
}

export type DayPartition = { name: string; day: number; from: string; to: string };

/** The day partitions of a table partitioned by id, oldest first, with the ids each holds. */
export async function dayPartitions(sql: Sql, table: PartitionedTable): Promise<DayPartition[]> {
  const prefix = PARTITIONED.find((p) => p.table === table)!.prefix;
  return (await partitionsOf(sql, BY_ID[table])).map(({ name, start, end }) => ({ name, day: start, from: idBoundAt(prefix, start), to: idBoundAt(prefix, end) }));
}

/**
 * What a day of deliveries carries of its own (migration 0019): the unique (message_id,
 * endpoint_id) index, the arbiter of resends and recoveries, which the parent cannot have (it lacks
 * the partition key). Made on the new, empty table before it is attached. (No foreign key to
 * messages: see migration 0019.)
 */
async function prepare(sql: Sql, table: string, name: string): Promise<void> {
  if (table !== "deliveries") return;
  await sql.unsafe(`create unique index if not exists ${ident(`${name}_message_endpoint_idx`)} on ${ident(name)} (message_id, endpoint_id)`);
}

/**
 * Makes the partition of `series` that starts at `start` and attaches it; the default partition
 * must hold none of its rows (makeSeriesPartitions proves it first). Returns its name.
 */
async function attachSpan(sql: Sql, series: Series, start: number): Promise<string> {
  const { table } = series;
  const name = `${table}_${series.tag}${new Date(start).toISOString().slice(0, 10).replace(/-/g, "")}`;
  await sql.unsafe(`create table if not exists ${ident(name)} (like ${ident(table)} including defaults including storage including compression)`);
  await prepare(sql, table, name);
  const keyed = await keyTables(sql, table);
  // ATTACH takes a lock on the parent that lets reads and writes go on (CREATE TABLE … PARTITION
  // OF would stop them); the new, empty table gets the parent's indexes and keys. It also locks the
  // default partition ACCESS EXCLUSIVE and then, for the keys it copies, the tables they join
  // SHARE ROW EXCLUSIVE. Waiting for the latter while holding the former closed a cycle with any
  // transaction that writes one of those tables and then reads the table (an ingest, a claim, an
  // outcome write): under steady traffic every attach waited out its whole lock timeout, every
  // write of the table waiting behind it, and failed — a 500 ms stall each minute, and the days
  // ahead never made (bench part c, 2026-12-07). Locked first, in that order, they are waited for
  // holding nothing anyone needs, and the attach then finds its locks held.
  await briefly(
    sql,
    async (tx) => {
      if (keyed.length > 0) await tx.unsafe(`lock table ${keyed.map(ident).join(", ")} in share row exclusive mode`);
      await tx.unsafe(`lock table ${ident(defaultPartition(table))} in access exclusive mode`);
      await tx.unsafe(`alter table ${ident(table)} attach partition ${ident(name)} for values from (${series.bound(start)}) to (${series.bound(endOf(series.width, start))})`);
    },
    CHANGE_LOCKS,
  );
  return name;
}

/**
 * The tables an attach to `table` locks for the foreign keys it copies: those its keys refer to,
 * and those whose keys refer to it (a partition's own key to it included).
 */
export async function keyTables(sql: Sql, table: string): Promise<string[]> {
  return (await keyTablesByRole(sql, table)).map((r) => r.name);
}

/** keyTables, each with whether its keys refer to `table` (else `table`'s keys refer to it). */
async function keyTablesByRole(sql: Sql, table: string): Promise<{ name: string; refers: boolean }[]> {
  return sql<{ name: string; refers: boolean }[]>`
    select r.relname as name, bool_or(k.refers) as refers from pg_class r
    join (select c.confrelid as oid, false as refers from pg_constraint c where c.contype = 'f' and c.conrelid = ${table}::regclass
          union all select c.conrelid, true from pg_constraint c where c.contype = 'f' and c.confrelid = ${table}::regclass) k on k.oid = r.oid
    where r.oid <> ${table}::regclass
    group by r.relname order by 1`;
}

/**
 * The locks a detach from `table` takes on other tables, in the order it should take them: the
 * tables whose keys refer to it ACCESS EXCLUSIVE (the keys' triggers for the partition go), then
 * those its keys refer to SHARE ROW EXCLUSIVE.
 */
export async function detachLocks(sql: Sql, table: string): Promise<{ name: string; mode: "access exclusive" | "share row exclusive" }[]> {
  const tables = await keyTablesByRole(sql, table);
  return [
    ...tables.filter((t) => t.refers).map((t) => ({ name: t.name, mode: "access exclusive" as const })),
    ...tables.filter((t) => !t.refers).map((t) => ({ name: t.name, mode: "share row exclusive" as const })),
  ];
}

/** Makes one day's partition of a table partitioned by id (see attachSpan). Returns its name. */
export function attachDay(sql: Sql, table: PartitionedTable, day: number): Promise<string> {
  return attachSpan(sql, BY_ID[table], day);
}

/**
 * Runs `work` in a transaction whose lock waits end after `timeout` (PARTITION_LOCK_TIMEOUT); a
 * lock not granted is tried again, up to `tries` times in all, after a pause of a tenth of a second or so.
 */
async function briefly<T>(sql: Sql, work: (tx: Sql) => Promise<T>, { timeout = PARTITION_LOCK_TIMEOUT, tries = 1 } = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await sql.begin(async (tx) => {
        await tx.unsafe(`set local lock_timeout = '${timeout}'`);
        return work(tx as unknown as Sql);
      })) as T;
    } catch (error) {
      if (attempt >= tries || !isLockNotAvailable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
    }
  }
}

/**
 * Makes the partitions of every series up to PARTITIONS_AHEAD days after today (PROVEN_AHEAD at
 * once when the default partition holds rows of the series), each partition the series' whole
 * width: a month of hourly rollup rows is made once PARTITIONS_AHEAD days before it begins.
 *
 * A new partition must not cover a row of the default partition (PostgreSQL checks, scanning the
 * default under an ACCESS EXCLUSIVE lock). When the default holds none of the series' rows (a new
 * install) the partitions start now and the check is instant. When it does (an upgraded install:
 * all its history) they start at the first span both after its newest such row and
 * PARTITION_LEAD_MS from now (rows made until then still fall to the default), and the check is
 * proven instead of scanned: a CHECK that the default has no row of the series in the new spans is
 * added to it NOT VALID (a brief lock), validated (a scan under a lock that lets reads and writes
 * go on), the partitions are attached (PostgreSQL sees the constraint and does not scan), and the
 * constraint is dropped again. That validation reads every row of the default partition, so while
 * it holds rows the spans are made PROVEN_AHEAD days at once. `only`: these series, not every
 * one. Returns the partitions made.
 */
export async function makePartitions({ ctx, now = Date.now(), only = SERIES }: { ctx: Ctx; now?: number; only?: Series[] }): Promise<string[]> {
  const sql = ctx.sql as Sql;
  const made: string[] = [];
  for (const series of only) {
    try {
      made.push(...(await makeSeriesPartitions(sql, series, now)));
    } catch (error) {
      // A lock not granted in time: the next sweep goes on (the partitions are made days ahead).
      if (!isRetryable(error)) throw error;
    }
  }
  return made;
}

async function makeSeriesPartitions(sql: Sql, series: Series, now: number): Promise<string[]> {
  const made: string[] = [];
  const { width } = series;
  const deflt = defaultPartition(series.table);
  const bound = `${deflt}_bound`;
  // A bound left by a sweep cut off halfway: harmless until its first span comes, gone now. (Looked
  // up first: the drop takes an ACCESS EXCLUSIVE lock on the default partition, which every
  // unpruned read of the table goes through.)
  const [left] = await sql`select 1 from pg_constraint where conrelid = ${deflt}::regclass and conname = ${bound}`;
  if (left) await briefly(sql, (tx) => tx.unsafe(`alter table ${ident(deflt)} drop constraint if exists ${ident(bound)}`));
  const spans = await partitionsOf(sql, series);
  const due = endOf(width, startOf(width, now + PARTITIONS_AHEAD * DAY_MS));
  let first = spans.length > 0 ? spans.at(-1)!.end : startOf(width, now);
  if (first >= due) return made;
  const newest = await series.newest(sql);
  const occupied = newest !== null;
  const end = occupied ? endOf(width, startOf(width, now + PROVEN_AHEAD * DAY_MS)) : due;
  if (occupied) {
    // The default holds rows: start after its newest, and far enough ahead that no row made
    // while this runs can fall in the new spans (the bound constraint would refuse it).
    first = Math.max(first, endOf(width, startOf(width, Math.max(newest, now + PARTITION_LEAD_MS))));
  }
  if (first >= end) return made;
  if (occupied) {
    await briefly(sql, (tx) => tx.unsafe(`alter table ${ident(deflt)} add constraint ${ident(bound)} check (${series.outside(first, end)}) not valid`));
    await sql.unsafe(`alter table ${ident(deflt)} validate constraint ${ident(bound)}`);
  }
  try {
    for (let start = first; start < end; start = endOf(width, start)) made.push(await attachSpan(sql, series, start));
  } finally {
    if (occupied) await briefly(sql, (tx) => tx.unsafe(`alter table ${ident(deflt)} drop constraint if exists ${ident(bound)}`));
  }
  return made;
}

/** How long a day's detach (an ACCESS EXCLUSIVE lock on the parent) and its drop took, lock waits included. */
export type DropTiming = { table: string; name: string; detachMs: number; dropMs: number };

/**
 * Detaches a partition and drops it: the detach with a few short tries for its locks, the drop
 * waiting at most PARTITION_LOCK_TIMEOUT.
 * `before` runs in the detach's transaction, first: what must go with the partition or not at all.
 */
export async function detachAndDrop(sql: Sql, table: string, name: string, timings: DropTiming[], before?: (tx: Sql) => Promise<void>): Promise<void> {
  const started = performance.now();
  const locks = await detachLocks(sql, table);
  // Not CONCURRENTLY: PostgreSQL refuses it on a table with a default partition. The plain detach
  // holds an ACCESS EXCLUSIVE lock on the parent for a catalog change (docs/benchmarks.md measures
  // it). It takes the parent first, then the tables of its keys (for deliveries: the queue, ACCESS
  // EXCLUSIVE). Waiting for the queue while holding the parent closed a cycle with every claim and
  // outcome write, which hold queue rows and then read deliveries: the detach waited out its lock
  // timeout, every write and read of the table queued behind it, and failed, sweep after sweep.
  // Locked first — the tables that refer to it, as the claims take the queue first — the detach
  // waits holding nothing a claim needs, and then finds its locks held.
  await briefly(
    sql,
    async (tx) => {
      for (const lock of locks) await tx.unsafe(`lock table ${ident(lock.name)} in ${lock.mode} mode`);
      await tx.unsafe(`lock table ${ident(table)} in access exclusive mode`);
      await before?.(tx);
      await tx.unsafe(`alter table ${ident(table)} detach partition ${ident(name)}`);
    },
    CHANGE_LOCKS,
  );
  const detached = performance.now();
  await briefly(sql, (tx) => tx.unsafe(`drop table if exists ${ident(name)}`));
  timings.push({ table, name, detachMs: detached - started, dropMs: performance.now() - detached });
}

/**
 * Detaches and drops one partition of `table` and counts its rows as removed from `table` (and the
 * partition). False when a lock was not granted in time or a row elsewhere still refers to the
 * partition's: the next sweep tries again.
 */
export async function dropPartition(sql: Sql, table: string, name: string, removed: Counts, timings: DropTiming[] = []): Promise<boolean> {
  const [rows] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(name)}`;
  try {
    await detachAndDrop(sql, table, name, timings);
  } catch (error) {
    if (!isRetryable(error)) throw error;
    return false;
  }
  addCounts(removed, { [table]: rows!.n, partitions: 1 });
  return true;
}

/** lock_not_available (a lock not granted in time), foreign_key_violation (a row refers to the day). */
export function isRetryable(error: unknown): boolean {
  return isLockNotAvailable(error) || isForeignKeyViolation(error);
}
