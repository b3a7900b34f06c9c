/**
 * Part p: time partitions (issue 21, ADR 0034), on two databases of the bench's server migrated
 * alike, one of them turned back into plain tables (messages, deliveries, attempts, audit_events,
 * alerts as before migrations 0017 and 0019):
 *
 *  p1. the delivery rate, partitioned against plain, in pairs in turn (part b's delivery of
 *      `deliveries` queued by SQL, 1 KiB payloads, one worker); the partitioned variant has
 *      `pastDays` empty days before today besides today and the days ahead, as production has at
 *      RETENTION_PERIOD=30d (what the delivery path costs grows with the partitions it plans and
 *      locks); `statements` prints each variant's statements by PostgreSQL time per attempt;
 *  p2. bytes on disk per message, 1 KiB payload, one endpoint, one delivery, one attempt (tables,
 *      indexes and TOAST of messages, deliveries, attempts, delivery_queue, failed_deliveries);
 *  p3. dropping a day: `dropMessages` messages with a delivery and an attempt each seeded by SQL
 *      into a day past RETENTION_PERIOD, then the sweep's dropExpiredPartitions, timed, with an
 *      insert and a read by id every 5 ms meanwhile (how long they waited is what the locks cost);
 *  p4. the soak: RETENTION_PERIOD=2m, SWEEP_INTERVAL=1m, `soakRate` messages/s ingested by SQL
 *      (one transaction per 100 messages, as ingest writes them: message, delivery, queue row, wake-up)
 *      for `soakMinutes`, the worker delivering; every minute the database size, the rate delivered
 *      and the ingest p99, and at the end both split by whether a sweep was running.
 *
 * Runs inside `npm run bench` (bench/run.ts) or alone:
 *   npx tsx bench/partitions.ts [--pairs 4] [--deliveries 20000] [--past-days 30] [--statements] [--drop-messages 200000] [--soak-minutes 10] [--soak-rate 1000]
 * (--statements loads pg_stat_statements into its PostgreSQL.)
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { createConsumer } from "../lib/consumers/create-consumer";
import { parseConfig } from "../lib/config";
import type { Ctx } from "../lib/context";
import { createSql, ormOver, type Sql } from "../lib/db/client";
import { migrateDatabase } from "../lib/db/migrate";
import { createEndpoint } from "../lib/endpoints/create-endpoint";
import { deliveryIdFor, newId } from "../lib/ids";
import { dropExpiredPartitions } from "../lib/retention/drop-expired-partitions";
import { DAY_MS, PARTITIONED, attachDay, makePartitions, startOfDay } from "../lib/retention/partitions";
import type { BenchDatabase } from "./database";
import { countAttempts } from "./database";
import { productEnv, startWorker } from "./product";
import { startReceiver, type Receiver } from "./receiver";
import { int, ms, percentile } from "./stats";
import { awaitDeliveries } from "./throughput";

export type PartitionOptions = {
  pairs: number;
  deliveries: number;
  /** Empty day partitions before today in the partitioned variant (30: production's at RETENTION_PERIOD=30d). */
  pastDays?: number;
  /** Print p1's statements per variant (the server must have pg_stat_statements loaded: STATEMENT_SETTINGS). */
  statements?: boolean;
  dropMessages: number;
  soakMinutes: number;
  soakRate: number;
  log: (line: string) => void;
};

/** Server settings for `statements`: planning time too, and statements inside the claim's functions. */
export const STATEMENT_SETTINGS = {
  shared_preload_libraries: "pg_stat_statements",
  "pg_stat_statements.track": "all",
  "pg_stat_statements.track_planning": "on",
};
export type PartitionFigures = {
  pairs: { parted: number; plain: number; ratio: number }[];
  bytesPerMessage: { parted: number; plain: number };
  drop?: { messages: number; totalMs: number; writeMaxMs: number; readMaxMs: number; removed: Record<string, number>; detachMaxMs: number; dropMaxMs: number };
  soak?: { minutes: { minute: number; dbBytes: number; ingested: number; delivered: number; ingestP99: number }[]; sweeping: Window; idle: Window; sweeps: number };
};
type Window = { seconds: number; deliveredPerSecond: number; ingestP99: number };

const PAYLOAD = JSON.stringify({ bench: "partitions", data: "x".repeat(1024 - 40) });
const ENDPOINTS = 20;
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

type Variant = { name: "parted" | "plain"; url: string; sql: Sql; env: NodeJS.ProcessEnv; endpointIds: string[]; db: BenchDatabase };

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * Migrations 0017 and 0019 undone on empty tables: each partitioned table's default partition
 * becomes the plain table again, with the foreign keys from and to them and deliveries' triggers as
 * the plain tables had them.
 */
async function unpartition(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    const tables = PARTITIONED.map((p) => p.table);
    // The keys between these tables and others, each where it is defined (a key on a default
    // partition of its own, deliveries_default's to messages, too), re-made on the plain tables.
    const keys = await tx<{ name: string; tbl: string; def: string }[]>`
      select c.conname as name, c.conrelid::regclass::text as tbl, pg_get_constraintdef(c.oid) as def from pg_constraint c
      where c.contype = 'f' and c.conparentid = 0
        and (c.conrelid::regclass::text = any(${tables}) or c.confrelid::regclass::text = any(${tables}) or c.conrelid::regclass::text = 'deliveries_default')`;
    const triggers = await tx<{ def: string }[]>`select pg_get_triggerdef(oid) as def from pg_trigger where tgrelid = 'deliveries'::regclass and not tgisinternal`;
    for (const k of keys) await tx.unsafe(`alter table ${k.tbl} drop constraint ${k.name}`);
    for (const table of tables) {
      await tx.unsafe(`alter table ${table} detach partition ${table}_default`);
      await tx.unsafe(`drop table ${table}`);
      await tx.unsafe(`alter table ${table}_default rename to ${table}`);
      const indexes = await tx<{ name: string }[]>`select indexname as name from pg_indexes where tablename = ${table} and indexname like ${`${table}_default_%`}`;
      for (const { name } of indexes) await tx.unsafe(`alter index ${name} rename to ${table}_${name.slice(`${table}_default_`.length)}`);
    }
    for (const k of keys) {
      const on = k.tbl.replace(/_default$/, "");
      const [dup] = await tx`select 1 from pg_constraint where conrelid = ${on}::regclass and conname = ${k.name}`;
      if (!dup) await tx.unsafe(`alter table ${on} add constraint ${k.name} ${k.def.replace(/ NOT VALID$/, "")}`);
    }
    for (const t of triggers) await tx.unsafe(t.def);
  });
}

async function makeVariant(serverUrl: string, name: Variant["name"], pastDays: number, log: (line: string) => void): Promise<Variant> {
  const database = `wa_bench_p_${name}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${database} with (force)`);
  await admin.unsafe(`create database ${database}`);
  await admin.end();
  const url = withDatabase(serverUrl, database);
  await migrateDatabase(url);
  const sql = createSql(url, { max: 4, name: `bench-${name}` });
  // The bench's workers sweep once an hour: the plain variant has no partitions to make.
  const env = { ...productEnv(url), SWEEP_INTERVAL: "1h" };
  const ctx: Ctx = { actor: { type: "system" }, db: ormOver(sql), sql, config: parseConfig(env) };
  if (name === "plain") await unpartition(sql);
  else {
    await makePartitions({ ctx });
    const today = startOfDay(Date.now());
    for (let d = 1; d <= pastDays; d++) for (const { table } of PARTITIONED) await attachDay(sql, table, today - d * DAY_MS);
  }
  const endpointIds: string[] = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    await createConsumer({ ctx, input: { uid: `p${i}`, name: `Bench ${i}` } as never });
    const endpoint = await createEndpoint({ ctx, consumerRef: `p${i}`, input: { url: "http://127.0.0.1:9/", max_concurrency: 100 } as never });
    endpointIds.push((endpoint as { id: string }).id);
  }
  const [days] = await sql<{ n: number }[]>`select count(*)::int as n from pg_inherits where inhparent = 'deliveries'::regclass`;
  log(`  ${name}: ${database}, ${ENDPOINTS} consumers × 1 endpoint${name === "plain" ? ", partitioning undone" : `, ${days!.n} partitions per table (${pastDays} past days)`}`);
  const db: BenchDatabase = { url, description: name, version: "", sql, apiKey: "", stop: async () => {} };
  return { name, url, sql, env, endpointIds, db };
}

/** `count` due deliveries, as ingest writes them: message (1 KiB), delivery, queue row; round-robin over the endpoints. */
async function queue(v: Variant, count: number): Promise<void> {
  const byEndpoint = new Map((await v.sql<{ id: string; consumer_id: string }[]>`select id, consumer_id from endpoints where id = any(${v.endpointIds})`).map((e) => [e.id, e.consumer_id]));
  for (let start = 0; start < count; start += 5000) {
    const n = Math.min(5000, count - start);
    await writeMessages(v.sql, Array.from({ length: n }, (_, i) => v.endpointIds[(start + i) % v.endpointIds.length]!), byEndpoint);
  }
}

async function writeMessages(sql: Sql, endpoints: string[], consumerOf: Map<string, string>): Promise<void> {
  const messageIds = endpoints.map(() => newId("message"));
  const deliveryIds = messageIds.map(deliveryIdFor);
  const consumers = endpoints.map((e) => consumerOf.get(e)!);
  await sql.begin(async (tx) => {
    await tx`
      insert into messages (id, consumer_id, event_type, payload)
      select unnest(${messageIds}::text[]), unnest(${consumers}::text[]), 'invoice.paid', ${PAYLOAD}`;
    await tx`
      insert into deliveries (id, message_id, endpoint_id, consumer_id, status, next_attempt_at)
      select unnest(${deliveryIds}::text[]), unnest(${messageIds}::text[]), unnest(${endpoints}::text[]), unnest(${consumers}::text[]), 'pending', now()`;
    await tx`
      insert into delivery_queue (delivery_id, endpoint_id, consumer_id, next_attempt_at)
      select unnest(${deliveryIds}::text[]), unnest(${endpoints}::text[]), unnest(${consumers}::text[]), now()`;
    await tx`select pg_notify('webhook_admin_due', '')`;
  });
}

let phase = 0;
async function deliverOnce(v: Variant, receiver: Receiver, count: number, logDir: string, log: (line: string) => void): Promise<number> {
  phase += 1;
  const group = `pp${phase}`;
  await v.sql`update endpoints e set url = ${receiver.url} || '/' || ${group} || '/' || e.id where e.id = any(${v.endpointIds})`;
  await queue(v, count);
  const attemptsBefore = (await countAttempts(v.sql)).total;
  const worker = await startWorker(v.env, logDir);
  const result = await awaitDeliveries({ receiver, db: v.db }, { label: `partitions ${v.name}`, group, expected: count, attemptsBefore, startedAt: worker.spawnedAt });
  await worker.stop();
  const rate = result.attempts / ((result.elapsedMs - result.firstArrivalMs) / 1000);
  log(`  ${v.name.padEnd(6)}: ${int(rate)}/s${result.complete ? "" : " (incomplete)"}`);
  return rate;
}

/** Forgets the variant's statements (pg_stat_statements keeps them per database). */
async function resetStatements(v: Variant): Promise<void> {
  await v.sql`select pg_stat_statements_reset(0, (select oid from pg_database where datname = current_database()), 0)`;
}

/** The variant's top 10 statements by planning + execution time per attempt since resetStatements. */
async function reportStatements(v: Variant, attempts: number, log: (line: string) => void): Promise<void> {
  const rows = await v.sql<{ query: string; calls: number; plans: number; plan_us: number; exec_us: number }[]>`
    select regexp_replace(left(query, 100), '[[:space:]]+', ' ', 'g') as query, calls::int, plans::int,
           (total_plan_time * 1000 / ${attempts})::float8 as plan_us, (total_exec_time * 1000 / ${attempts})::float8 as exec_us
    from pg_stat_statements
    where dbid = (select oid from pg_database where datname = current_database()) and query not ilike '%pg_stat_statements%'
    order by total_plan_time + total_exec_time desc limit 10`;
  log(`  ${v.name}: PostgreSQL per attempt (µs, planning + execution; a function's nested statements are inside its own too):`);
  for (const r of rows) {
    log(`    ${(r.plan_us + r.exec_us).toFixed(1).padStart(7)} = ${r.plan_us.toFixed(1).padStart(6)} + ${r.exec_us.toFixed(1).padStart(6)}  ${String(r.calls).padStart(6)}× (${r.plans} planned)  ${r.query}`);
  }
}

/** Bytes of the tables a message's delivery writes, with their indexes, TOAST and partitions. */
async function deliveryBytes(sql: Sql): Promise<number> {
  const [row] = await sql<{ bytes: number }[]>`
    select sum(coalesce((select sum(pg_total_relation_size(t.relid)) from pg_partition_tree(r.rel) t where t.isleaf and t.relid <> r.rel),
                        pg_total_relation_size(r.rel)))::float8 as bytes
    from unnest(array['messages', 'deliveries', 'attempts', 'delivery_queue', 'failed_deliveries']::regclass[]) as r(rel)`;
  return row!.bytes;
}

async function measureDrop(v: Variant, messages: number, log: (line: string) => void): Promise<PartitionFigures["drop"]> {
  // A day past the retention (1 d here): three days ago, made as a day partition of its own.
  const day = startOfDay(Date.now()) - 3 * DAY_MS;
  const env = { ...v.env, RETENTION_PERIOD: "1d" };
  const ctx: Ctx = { actor: { type: "system" }, db: ormOver(v.sql), sql: v.sql, config: parseConfig(env) };
  for (const table of ["messages", "deliveries", "attempts"] as const) await attachDay(v.sql, table, day);
  const byEndpoint = new Map((await v.sql<{ id: string; consumer_id: string }[]>`select id, consumer_id from endpoints where id = any(${v.endpointIds})`).map((e) => [e.id, e.consumer_id]));
  const seedStarted = performance.now();
  for (let start = 0; start < messages; start += 10_000) {
    const n = Math.min(10_000, messages - start);
    const at = Array.from({ length: n }, (_, i) => day + Math.floor(((start + i) * (DAY_MS - 60_000)) / messages));
    const ids = at.map((t) => newId("message", t));
    const deliveries = at.map((t) => newId("delivery", t));
    const attempts = at.map((t) => newId("attempt", t + 500));
    const endpoints = at.map((_, i) => v.endpointIds[(start + i) % v.endpointIds.length]!);
    const consumers = endpoints.map((e) => byEndpoint.get(e)!);
    const times = at.map((t) => new Date(t).toISOString());
    await v.sql`insert into messages (id, consumer_id, event_type, payload, created_at)
      select unnest(${ids}::text[]), unnest(${consumers}::text[]), 'invoice.paid', ${PAYLOAD}, unnest(${times}::timestamptz[])`;
    await v.sql`insert into deliveries (id, message_id, endpoint_id, consumer_id, status, attempts, created_at)
      select unnest(${deliveries}::text[]), unnest(${ids}::text[]), unnest(${endpoints}::text[]), unnest(${consumers}::text[]), 'succeeded', 1, unnest(${times}::timestamptz[])`;
    await v.sql`insert into attempts (id, delivery_id, message_id, endpoint_id, consumer_id, attempt_number, trigger, success, status_code, duration_ms, request_headers, response_body, created_at)
      select unnest(${attempts}::text[]), unnest(${deliveries}::text[]), unnest(${ids}::text[]), unnest(${endpoints}::text[]), unnest(${consumers}::text[]),
             1, 'scheduled', true, 200, 12, '{"content-type":"application/json","webhook-id":"msg_x","webhook-timestamp":"1796000000","webhook-signature":"v1,abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG="}', 'ok',
             unnest(${times}::timestamptz[])`;
  }
  await v.sql`vacuum analyze messages, deliveries, attempts`;
  log(`  seeded ${int(messages)} messages (1 KiB), ${int(messages)} deliveries, ${int(messages)} attempts into one past day in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);
  // Meanwhile, a write and a read by id every 5 ms, on connections of their own.
  const probe = createSql(v.url, { max: 2, name: "bench-probe" });
  const [known] = await probe<{ id: string }[]>`select id from messages order by id desc limit 1`;
  const writes: number[] = [];
  const reads: number[] = [];
  let running = true;
  const loop = (async () => {
    const endpoint = v.endpointIds[0]!;
    while (running) {
      let t = performance.now();
      await writeMessages(probe, [endpoint], byEndpoint);
      writes.push(performance.now() - t);
      t = performance.now();
      await probe`select id from messages where id = ${known?.id ?? ""}`;
      reads.push(performance.now() - t);
      await sleep(5);
    }
  })();
  await sleep(500);
  const started = performance.now();
  const { removed, timings } = await dropExpiredPartitions({ ctx, deadline: Date.now() + 600_000 });
  const totalMs = performance.now() - started;
  await sleep(500);
  running = false;
  await loop;
  await probe.end();
  const figures = { messages, totalMs, writeMaxMs: Math.max(...writes), readMaxMs: Math.max(...reads), removed, detachMaxMs: Math.max(...timings.map((t) => t.detachMs)), dropMaxMs: Math.max(...timings.map((t) => t.dropMs)) };
  log(
    `  dropped in ${(totalMs / 1000).toFixed(1)} s: ${Object.entries(removed).map(([k, n]) => `${k} ${int(n)}`).join(", ")}; ` +
      `${timings.map((t) => `${t.name}: detach ${ms(t.detachMs)} (ACCESS EXCLUSIVE on ${t.table}), drop ${ms(t.dropMs)}`).join("; ")}; ` +
      `meanwhile ${writes.length} writes (p99 ${ms(percentile(writes, 99))}, max ${ms(figures.writeMaxMs)}) and reads by id (p99 ${ms(percentile(reads, 99))}, max ${ms(figures.readMaxMs)})`,
  );
  return figures;
}

async function soak(v: Variant, receiver: Receiver, o: PartitionOptions, logDir: string): Promise<PartitionFigures["soak"]> {
  const group = "soak";
  await v.sql`update endpoints e set url = ${receiver.url} || '/' || ${group} || '/' || e.id where e.id = any(${v.endpointIds})`;
  const byEndpoint = new Map((await v.sql<{ id: string; consumer_id: string }[]>`select id, consumer_id from endpoints where id = any(${v.endpointIds})`).map((e) => [e.id, e.consumer_id]));
  const worker = await startWorker({ ...v.env, RETENTION_PERIOD: "2m", SWEEP_INTERVAL: "1m" }, logDir);
  const ingestSql = createSql(v.url, { max: 4, name: "bench-soak" });
  const started = Date.now();
  const end = started + o.soakMinutes * 60_000;
  const latencies: { at: number; ms: number }[] = [];
  const deliveredAt: { at: number; count: number }[] = [];
  let running = true;
  let next = 0;
  // 100 messages a transaction, every 100 ms × (1000 / rate).
  const every = (100 * 1000) / o.soakRate;
  const ingest = (async () => {
    let tick = performance.now();
    while (running) {
      const endpoints = Array.from({ length: 100 }, () => v.endpointIds[next++ % v.endpointIds.length]!);
      const t = performance.now();
      await writeMessages(ingestSql, endpoints, byEndpoint);
      latencies.push({ at: Date.now(), ms: performance.now() - t });
      tick += every;
      const wait = tick - performance.now();
      if (wait > 0) await sleep(wait);
    }
  })();
  const minutes: NonNullable<PartitionFigures["soak"]>["minutes"] = [];
  let lastCount = receiver.count(group);
  let minute = 0;
  while (Date.now() < end) {
    await sleep(1000);
    const count = receiver.count(group);
    deliveredAt.push({ at: Date.now(), count: count - lastCount });
    lastCount = count;
    if (Date.now() - started >= (minute + 1) * 60_000) {
      minute += 1;
      const [size] = await v.sql<{ bytes: number }[]>`select pg_database_size(current_database())::float8 as bytes`;
      const recent = deliveredAt.filter((d) => d.at > Date.now() - 60_000);
      const recentLat = latencies.filter((l) => l.at > Date.now() - 60_000).map((l) => l.ms);
      const row = { minute, dbBytes: size!.bytes, ingested: (recentLat.length * 100) / 60, delivered: recent.reduce((s, d) => s + d.count, 0) / 60, ingestP99: percentile(recentLat, 99) };
      minutes.push(row);
      o.log(`  minute ${minute}: database ${(row.dbBytes / 1e6).toFixed(0)} MB, ingested ${int(row.ingested)}/s, delivered ${int(row.delivered)}/s, ingest p99 ${ms(row.ingestP99)} per 100 messages, load ${os.loadavg()[0]!.toFixed(2)}`);
    }
  }
  running = false;
  await ingest;
  await ingestSql.end();
  await worker.stop();
  const sweeps = await v.sql<{ started_at: Date; finished_at: Date; removed: Record<string, number> }[]>`
    select started_at, finished_at, removed from sweep_runs where started_at >= ${new Date(started)} order by id`;
  const inSweep = (at: number) => sweeps.some((s) => at >= s.started_at.getTime() && at <= s.finished_at.getTime() + 1000);
  const window = (sweeping: boolean): Window => {
    const d = deliveredAt.filter((x) => inSweep(x.at) === sweeping);
    const l = latencies.filter((x) => inSweep(x.at) === sweeping).map((x) => x.ms);
    return { seconds: d.length, deliveredPerSecond: d.reduce((s, x) => s + x.count, 0) / Math.max(1, d.length), ingestP99: percentile(l, 99) };
  };
  for (const s of sweeps) o.log(`  sweep ${s.started_at.toISOString().slice(11, 19)}: ${s.finished_at.getTime() - s.started_at.getTime()} ms, removed ${JSON.stringify(s.removed)}`);
  return { minutes, sweeping: window(true), idle: window(false), sweeps: sweeps.length };
}

export async function measurePartitions(ctx: { serverUrl: string; receiver: Receiver; logDir: string }, o: PartitionOptions): Promise<PartitionFigures> {
  const { log } = o;
  const parted = await makeVariant(ctx.serverUrl, "parted", o.pastDays ?? 30, log);
  const plain = await makeVariant(ctx.serverUrl, "plain", 0, log);
  const figures: PartitionFigures = { pairs: [], bytesPerMessage: { parted: 0, plain: 0 } };
  try {
    log(`p1. delivery rate, ${int(o.deliveries)} deliveries per phase (1 KiB payloads), partitioned and plain in turn, ${o.pairs} pairs`);
    // A phase each first, not counted: the first phase after a start is the slowest (caches, JIT).
    for (const v of [parted, plain]) await deliverOnce(v, ctx.receiver, Math.max(1000, Math.floor(o.deliveries / 4)), ctx.logDir, (line) => log(`${line} (warm-up)`));
    if (o.statements) {
      for (const v of [parted, plain]) {
        await v.sql`create extension if not exists pg_stat_statements`;
        await resetStatements(v);
      }
    }
    for (let i = 0; i < o.pairs; i++) {
      const order = i % 2 === 0 ? [parted, plain] : [plain, parted];
      const got: Record<string, number> = {};
      for (const v of order) got[v.name] = await deliverOnce(v, ctx.receiver, o.deliveries, ctx.logDir, log);
      figures.pairs.push({ parted: got.parted!, plain: got.plain!, ratio: got.parted! / got.plain! });
      log(`  pair ${i + 1}: partitioned / plain ${(got.parted! / got.plain!).toFixed(3)}, load ${os.loadavg()[0]!.toFixed(2)}`);
    }
    if (o.statements) for (const v of [parted, plain]) await reportStatements(v, o.pairs * o.deliveries, log);
    for (const v of [parted, plain]) {
      await v.sql`vacuum analyze`;
      const [n] = await v.sql<{ n: number }[]>`select count(*)::int as n from messages`;
      figures.bytesPerMessage[v.name] = (await deliveryBytes(v.sql)) / n!.n;
    }
    log(`p2. bytes per message (1 KiB payload, one delivery, one attempt): partitioned ${int(figures.bytesPerMessage.parted)}, plain ${int(figures.bytesPerMessage.plain)}`);
    if (o.dropMessages > 0) {
      log(`p3. dropping a day of ${int(o.dropMessages)} messages`);
      figures.drop = await measureDrop(parted, o.dropMessages, log);
    }
    if (o.soakMinutes > 0) {
      log(`p4. soak: RETENTION_PERIOD=2m, ${int(o.soakRate)} messages/s for ${o.soakMinutes} min`);
      figures.soak = await soak(parted, ctx.receiver, o, ctx.logDir);
      const s = figures.soak!;
      log(
        `  during sweeps (${s.sweeping.seconds} s): ${int(s.sweeping.deliveredPerSecond)}/s delivered, ingest p99 ${ms(s.sweeping.ingestP99)}; ` +
          `without (${s.idle.seconds} s): ${int(s.idle.deliveredPerSecond)}/s, ingest p99 ${ms(s.idle.ingestP99)}`,
      );
    }
  } finally {
    await parted.sql.end();
    await plain.sql.end();
  }
  if (figures.pairs.length > 0) log(`  median partitioned / plain: ${median(figures.pairs.map((p) => p.ratio)).toFixed(3)}`);
  return figures;
}

// Alone: an embedded PostgreSQL of its own under .data/bench-partitions.
if (process.argv[1]?.endsWith(path.join("bench", "partitions.ts"))) {
  const { values } = parseArgs({
    options: {
      pairs: { type: "string", default: "4" },
      deliveries: { type: "string", default: "20000" },
      "past-days": { type: "string", default: "30" },
      statements: { type: "boolean", default: false },
      "drop-messages": { type: "string", default: "200000" },
      "soak-minutes": { type: "string", default: "10" },
      "soak-rate": { type: "string", default: "1000" },
    },
  });
  const { startEmbeddedPostgres } = await import("../lib/db/embedded");
  const { ensureLogDir } = await import("./system");
  const dir = path.resolve(".data/bench-partitions");
  const logDir = await ensureLogDir(path.join(dir, "logs"));
  const server = await startEmbeddedPostgres({
    dir: path.join(dir, "pg-" + randomBytes(3).toString("hex")),
    settings: { synchronous_commit: "off", ...(values.statements ? STATEMENT_SETTINGS : {}) },
  });
  const receiver = await startReceiver();
  try {
    await measurePartitions(
      { serverUrl: server.url, receiver, logDir },
      {
        pairs: Number(values.pairs),
        deliveries: Number(values.deliveries),
        pastDays: Number(values["past-days"]),
        statements: values.statements,
        dropMessages: Number(values["drop-messages"]),
        soakMinutes: Number(values["soak-minutes"]),
        soakRate: Number(values["soak-rate"]),
        log: (line) => console.log(line),
      },
    );
  } finally {
    await receiver.close();
    await server.stop();
  }
  process.exit(0);
}
