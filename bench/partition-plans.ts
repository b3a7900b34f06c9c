/**
 * Part p0: the plans of the queries that must keep their index paths under time partitions
 * (issue 21, ADRs 0034 and 0036) — the keyset lists (message log, attempts, deliveries), a read by
 * id, payload search, the claim's lease join, the outcome writes, GET /stats and the compaction on
 * a year of rollup rows, a recovery's feeder and a new run's check — on two databases of one server
 * holding the same rows: one partitioned by day (migrations 0017 and 0019 and the sweep's day
 * partitions), one with plain tables (0016). `days` days of `perDay` messages, each with one
 * delivery and one attempt.
 *
 *   npx tsx bench/partition-plans.ts [--days 10] [--per-day 30000] [--server postgres://…]
 *
 * Prints EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) of each query on each database;
 * bench/results/2026-12-02-p-time-partitions.md quotes them.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { parseConfig } from "../lib/config";
import type { Ctx } from "../lib/context";
import { createSql, ormOver, type Sql } from "../lib/db/client";
import { migrateDatabase } from "../lib/db/migrate";
import { deliveryIdFloorSql } from "../lib/db/deliveries-of-messages";
import { deliveryIdFloor, newId } from "../lib/ids";
import { DAY_MS, ROLLUP_HOURS, makePartitions, startOfDay } from "../lib/retention/partitions";

type Options = { days: number; perDay: number; log: (line: string) => void; /** The databases of an earlier run, as they are. */ reuse?: boolean };

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  return withDatabase(serverUrl, name);
}

/** drizzle/ up to migration `last`, in a folder of its own. */
function migrationsUpTo(last: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), "wa-plans-"));
  cpSync("drizzle", dir, { recursive: true });
  const file = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(file, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  writeFileSync(file, JSON.stringify(journal));
  return dir;
}

async function seed(dbs: Sql[], o: Options, now: number): Promise<{ endpoint: string; consumer: string; message: string }> {
  const consumers = Array.from({ length: 10 }, (_, i) => ({ id: newId("consumer"), uid: `c${i}` }));
  for (const sql of dbs) for (const c of consumers) await sql`insert into consumers (id, uid, name) values (${c.id}, ${c.uid}, ${c.uid})`;
  const endpoints = consumers.map((c) => ({ id: newId("endpoint"), consumer: c.id }));
  for (const sql of dbs) for (const e of endpoints) await sql`insert into endpoints (id, consumer_id, url) values (${e.id}, ${e.consumer}, 'http://127.0.0.1:9/')`;
  const total = o.days * o.perDay;
  const first = startOfDay(now) - (o.days - 1) * DAY_MS;
  for (let start = 0; start < total; start += 10_000) {
    const n = Math.min(10_000, total - start);
    const at = Array.from({ length: n }, (_, i) => Math.min(now - 1000, first + Math.floor(((start + i) * (now - first)) / total)));
    const e = at.map((_, i) => endpoints[(start + i) % endpoints.length]!);
    const ids = at.map((t) => newId("message", t));
    const dlv = at.map((t) => newId("delivery", t));
    const att = at.map((t) => newId("attempt", t + 300));
    const times = at.map((t) => new Date(t).toISOString());
    const later = at.map((t) => new Date(t + 300).toISOString());
    const cons = e.map((x) => x.consumer);
    const eps = e.map((x) => x.id);
    const payloads = at.map((_, i) => JSON.stringify({ customer: `cus_${start + i}`, amount: (start + i) % 1000 }));
    for (const sql of dbs) {
    await sql`insert into messages (id, consumer_id, event_type, payload, created_at)
      select unnest(${ids}::text[]), unnest(${cons}::text[]), 'invoice.paid', unnest(${payloads}::text[]), unnest(${times}::timestamptz[])`;
    await sql`insert into deliveries (id, message_id, endpoint_id, consumer_id, status, attempts, created_at)
      select unnest(${dlv}::text[]), unnest(${ids}::text[]), unnest(${eps}::text[]), unnest(${cons}::text[]), 'succeeded', 1, unnest(${times}::timestamptz[])`;
    await sql`insert into attempts (id, delivery_id, message_id, endpoint_id, consumer_id, attempt_number, trigger, success, status_code, duration_ms, created_at)
      select unnest(${att}::text[]), unnest(${dlv}::text[]), unnest(${ids}::text[]), unnest(${eps}::text[]), unnest(${cons}::text[]), 1, 'scheduled', true, 200, 9,
             unnest(${later}::timestamptz[])`;
    }
  }
  // The rollup as a year of traffic leaves it: an hourly row per scope (each endpoint, each
  // consumer, everything) for STATS_RETENTION's 400 days, a minute row for STATS_MINUTE_RETENTION's 8.
  const scopes = ["", ...consumers.map((c) => c.id), ...endpoints.map((e) => e.id)];
  const hour = Math.floor(now / 3_600_000) * 3_600_000;
  for (const sql of dbs) {
    await sql`
      insert into attempt_stats (scope, bucket_seconds, t, attempts, succeeded, failed, latency_buckets, latency_counts)
      select s, 3600, h, 60, 59, 1, '{5,40}'::smallint[], '{59,1}'::int[]
      from unnest(${scopes}::text[]) s, generate_series(${new Date(hour - 400 * DAY_MS)}::timestamptz, ${new Date(hour)}::timestamptz, '1 hour') h
      union all
      select s, 60, m, 1, 1, 0, '{5}', '{1}'
      from unnest(${scopes}::text[]) s, generate_series(${new Date(hour - 8 * DAY_MS)}::timestamptz, ${new Date(hour)}::timestamptz, '1 minute') m`;
  }
  // Recovery runs of the last days, 10,000 items each, one of them still running.
  for (let i = 0; i < 5; i++) {
    const at = now - (i + 1) * Math.floor(((o.days - 1) * DAY_MS) / 6);
    const run = newId("recovery", at);
    for (const sql of dbs) {
      await sql`
        insert into recoveries (id, consumer_id, endpoint_id, state, scope, options, created_by_type, created_at)
        values (${run}, ${consumers[i]!.id}, ${endpoints[i]!.id}, ${i === 0 ? "running" : "completed"}, '{}', '{}', 'system', ${new Date(at)})`;
      await sql`
        insert into recovery_items (recovery_id, seq, message_id, endpoint_id, outcome)
        select ${run}, row_number() over (order by id), id, ${endpoints[i]!.id}, ${i === 0 ? "pending" : "succeeded"}
        from (select id from messages where created_at < ${new Date(at)} order by created_at desc limit 10000) m`;
    }
  }
  for (const sql of dbs) {
    await sql`vacuum analyze`;
    // The partitioned parents too: autovacuum analyzes partitions, not their parents.
    await sql`analyze messages, deliveries, attempts, attempt_stats, recovery_items`;
  }
  const [m] = await dbs[0]!<{ id: string }[]>`select id from messages order by id limit 1 offset ${Math.floor(total / 2)}`;
  return { endpoint: endpoints[3]!.id, consumer: consumers[3]!.id, message: m!.id };
}

function queries(
  k: { endpoint: string; consumer: string; message: string },
  cursor: { at: string; id: string },
  newest: string[],
  oldest: string[],
): { name: string; sql: string }[] {
  const page = "order by created_at desc nulls last, id desc nulls last limit 51";
  const iso = (ms: number) => new Date(ms).toISOString();
  const hourStart = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  const rollupSpan = (scope: string, bucketSeconds: number, spanMs: number) =>
    `select t, attempts, succeeded, failed, latency_buckets, latency_counts from attempt_stats
     where scope = '${scope}' and bucket_seconds = ${bucketSeconds} and t >= '${iso(hourStart - spanMs)}' and t < '${iso(hourStart + 3_600_000)}'`;
  const list = newest.map((id) => `'${id}'`).join(", ");
  const floor = deliveryIdFloor(k.message);
  return [
    { name: "message log, first page", sql: `select * from messages ${page}` },
    { name: "message log, a later page (keyset)", sql: `select * from messages where (created_at, id) < ('${cursor.at}'::timestamptz, '${cursor.id}') ${page}` },
    { name: "message log of one consumer", sql: `select * from messages where consumer_id = '${k.consumer}' ${page}` },
    { name: "a message by id", sql: `select * from messages where id = '${k.message}'` },
    { name: "payload search (payload_contains)", sql: `select * from messages where webhook_admin_payload_jsonb(payload) @> '{"customer":"cus_20000"}'::jsonb ${page}` },
    { name: "attempts, first page", sql: `select * from attempts ${page}` },
    { name: "attempts of one endpoint", sql: `select * from attempts where endpoint_id = '${k.endpoint}' ${page}` },
    { name: "attempts of one message", sql: `select * from attempts where message_id = '${k.message}' ${page}` },
    // As lib/messages/queries.ts reads them: each bounded below by deliveryIdFloor of its messages.
    {
      name: "deliveries of a page of the message log (51 messages)",
      sql: `select * from deliveries where message_id in (${list}) and id >= '${deliveryIdFloor([...newest].sort()[0]!)}'`,
    },
    { name: "a message's deliveries", sql: `select * from deliveries where message_id = '${k.message}' and id >= '${deliveryIdFloor(k.message)}'` },
    {
      name: "message log of one endpoint (exists a delivery)",
      sql: `select * from messages m where exists (
              select 1 from deliveries d where d.message_id = m.id and d.id >= ${deliveryIdFloorSql("m.id")} and d.endpoint_id = '${k.endpoint}') ${page}`,
    },
    { name: "deliveries of one endpoint, newest first", sql: `select * from deliveries where endpoint_id = '${k.endpoint}' ${page}` },
    // The other reads of deliveries by message, each bounded as lib/db/deliveries-of-messages.ts bounds them.
    { name: "a resend's delivery (message and endpoint)", sql: `select id from deliveries where message_id = '${k.message}' and id >= '${floor}' and endpoint_id = '${k.endpoint}'` },
    {
      name: "a payload expunge's pending deliveries (update)",
      sql: `update deliveries set status = 'canceled', next_attempt_at = null, last_error = 'payload_expunged', updated_at = now()
            where message_id = '${k.message}' and id >= '${floor}' and status = 'pending'`,
    },
    {
      name: "a retention batch's deliveries (the 2,000 oldest messages, locked)",
      sql: `select id from deliveries where message_id = any(array[${oldest.map((id) => `'${id}'`).join(", ")}]) and id >= '${deliveryIdFloor(oldest[0]!)}'
            order by id for update skip locked`,
    },
    {
      name: "Svix attempted destinations (a message's deliveries with their endpoints)",
      sql: `select e.*, d.status, d.attempts, d.next_attempt_at from deliveries d join endpoints e on e.id = d.endpoint_id
            where d.message_id = '${k.message}' and d.id >= '${floor}' order by e.id limit 51`,
    },
    {
      name: "Svix attempted messages (an endpoint's deliveries with their messages)",
      sql: `select m.*, d.status, d.attempts, d.next_attempt_at from deliveries d join messages m on d.message_id = m.id and d.id >= ${deliveryIdFloorSql("m.id")}
            where d.endpoint_id = '${k.endpoint}' order by m.created_at desc, m.id desc limit 51`,
    },
    {
      name: "a recovery's scope: a day of messages the endpoint never got (not exists a delivery)",
      sql: `select m.id, e.id from messages m join endpoints e on e.id = '${k.endpoint}'
            where m.consumer_id = '${k.consumer}' and m.created_at >= now() - interval '1 day'
              and not exists (select 1 from deliveries d where d.message_id = m.id and d.id >= ${deliveryIdFloorSql("m.id")} and d.endpoint_id = e.id)`,
    },
    {
      name: "a recovery feeder's items, each to its delivery (100 of the last day)",
      sql: `with v as materialized (
              select id as message_id, '${k.endpoint}'::text as endpoint_id from messages
              where consumer_id = '${k.consumer}' and created_at >= now() - interval '1 day' order by created_at, id limit 100)
            select v.message_id, d.id from v left join deliveries d on d.message_id = v.message_id and d.id >= ${deliveryIdFloorSql("v.message_id")} and d.endpoint_id = v.endpoint_id`,
    },
    {
      name: "the claim's lease join (deliveries → messages by id, 100 claimed)",
      sql: `with c as materialized (select id as delivery_id from deliveries order by id desc limit 100)
            select d.id, m.payload, m.is_test from c join deliveries d on d.id = c.delivery_id join messages m on m.id = d.message_id`,
    },
    // GET /stats (lib/stats/queries.ts): one scope's rollup rows of a span, by bucket size; the
    // compaction's fold; a recovery run's feeder and a new run's check (migration 0020).
    { name: "GET /stats of one endpoint by the minute, 6 hours", sql: rollupSpan(k.endpoint, 60, 6 * 3_600_000) },
    { name: "GET /stats of one endpoint by the hour, 7 days", sql: rollupSpan(k.endpoint, 3600, 7 * DAY_MS) },
    { name: "GET /stats of everything by the day, 90 days", sql: rollupSpan("", 3600, 90 * DAY_MS) },
    {
      name: "an endpoint's totals since a time (minutes to the hour, hours since)",
      sql: `select sum(attempts) from attempt_stats where scope = '${k.endpoint}'
              and ((bucket_seconds = 60 and t >= '${iso(hourStart - 3_000_000)}' and t < '${iso(hourStart)}') or (bucket_seconds = 3600 and t >= '${iso(hourStart)}'))`,
    },
    {
      name: "the compaction's fold (insert … on conflict (scope, bucket_seconds, t) do update)",
      sql: `insert into attempt_stats (scope, bucket_seconds, t, attempts, succeeded, failed, latency_buckets, latency_counts)
            values ('${k.endpoint}', 60, '${iso(hourStart)}', 1, 1, 0, '{5}', '{1}'), ('${k.endpoint}', 3600, '${iso(hourStart)}', 1, 1, 0, '{5}', '{1}')
            on conflict (scope, bucket_seconds, t) do update set attempts = attempt_stats.attempts + excluded.attempts`,
    },
    {
      name: "a running recovery's next pending items (the feeder)",
      sql: `select seq, message_id, endpoint_id from recovery_items
            where recovery_id = (select id from recoveries where state = 'running') and outcome = 'pending' order by seq limit 100`,
    },
    {
      name: "a new run's check: items an active run holds (lib/recoveries/scope.ts)",
      sql: `select exists (select 1 from recovery_items i join recoveries r on r.id = i.recovery_id
              where i.message_id = '${k.message}' and i.endpoint_id = '${k.endpoint}' and r.state in ('planned', 'canary', 'running', 'paused'))`,
    },
    {
      name: "an outcome write: the attempt logged (insert … on conflict (id) do nothing)",
      sql: `insert into attempts (id, delivery_id, message_id, endpoint_id, consumer_id, attempt_number, trigger, success, status_code, duration_ms)
            values ('${newId("attempt")}', 'dlv_x', '${k.message}', '${k.endpoint}', '${k.consumer}', 2, 'manual', true, 200, 5) on conflict (id) do nothing`,
    },
  ];
}

export async function capturePlans(serverUrl: string, o: Options): Promise<{ name: string; plain: string; parted: string }[]> {
  const now = Date.now();
  const plainUrl = withDatabase(serverUrl, "wa_bench_plans_plain");
  const partedUrl = withDatabase(serverUrl, "wa_bench_plans_parted");
  if (!o.reuse) {
    const folder = migrationsUpTo(16);
    await freshDatabase(serverUrl, "wa_bench_plans_plain");
    await freshDatabase(serverUrl, "wa_bench_plans_parted");
    await migrateDatabase(plainUrl, { migrationsFolder: folder });
    rmSync(folder, { recursive: true, force: true });
    await migrateDatabase(partedUrl);
  }
  const plain = createSql(plainUrl, { max: 1, name: "plans-plain" });
  const parted = createSql(partedUrl, { max: 1, name: "plans-parted" });
  const ctx: Ctx = { actor: { type: "system" }, db: ormOver(parted), sql: parted, config: parseConfig({ ...process.env, ENCRYPTION_KEY: "0".repeat(64) }) };
  let keys: { endpoint: string; consumer: string; message: string };
  if (!o.reuse) {
    // Day partitions from the first seeded day (the default partition is empty: nothing to prove),
    // months of hourly rollup rows from STATS_RETENTION's 400 days back.
    await makePartitions({ ctx, now: now - 400 * DAY_MS, only: [ROLLUP_HOURS] });
    await makePartitions({ ctx, now: now - (o.days - 1) * DAY_MS });
    await makePartitions({ ctx, now });
    keys = await seed([plain, parted], o, now);
  } else {
    const [e] = await plain<{ id: string; consumer_id: string }[]>`select id, consumer_id from endpoints order by id limit 1 offset 3`;
    const [m] = await plain<{ id: string }[]>`select id from messages order by id limit 1 offset ${Math.floor((o.days * o.perDay) / 2)}`;
    keys = { endpoint: e!.id, consumer: e!.consumer_id, message: m!.id };
  }
  const [c] = await plain<{ at: Date; id: string }[]>`select created_at as at, id from messages order by created_at desc, id desc offset 5000 limit 1`;
  const out: { name: string; plain: string; parted: string }[] = [];
  const newest = (await plain<{ id: string }[]>`select id from messages order by created_at desc, id desc limit 51`).map((m) => m.id);
  const oldest = (await plain<{ id: string }[]>`select id from messages order by created_at, id limit 2000`).map((m) => m.id);
  for (const q of queries(keys, { at: c!.at.toISOString(), id: c!.id }, newest, oldest)) {
    const explain = async (sql: Sql) => {
      await sql`begin`;
      try {
        // The third run's plan: caches warm, as a list read again and again is.
        let plan = "";
        for (let i = 0; i < 3; i++) plan = (await sql.unsafe(`explain (analyze, buffers, costs off, summary on) ${q.sql}`)).map((r) => (r as Record<string, string>)["QUERY PLAN"]).join("\n");
        return plan;
      } finally {
        await sql`rollback`;
      }
    };
    const row = { name: q.name, plain: await explain(plain), parted: await explain(parted) };
    out.push(row);
    o.log(`\n### ${q.name}\n-- plain\n${row.plain}\n-- partitioned\n${row.parted}`);
  }
  await plain.end();
  await parted.end();
  return out;
}

if (process.argv[1]?.endsWith(path.join("bench", "partition-plans.ts"))) {
  const { values } = parseArgs({
    options: { days: { type: "string", default: "10" }, "per-day": { type: "string", default: "30000" }, server: { type: "string" }, reuse: { type: "boolean", default: false } },
  });
  if (!values.server) throw new Error("--server postgres://… (a server where databases may be created)");
  await capturePlans(values.server, { days: Number(values.days), perDay: Number(values["per-day"]), reuse: values.reuse, log: (line) => console.log(line) });
  process.exit(0);
}
