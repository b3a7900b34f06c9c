/**
 * Part g of `npm run bench`, also runnable alone: `node --import tsx bench/log-queries.ts`.
 * The message log's and the overview's queries over a month of traffic (10 million attempts,
 * 2 million messages by default), each run many times through the same lib functions the routes
 * call, with random parameters: p50, p95 and max, and whether each meets its goal (≤ 50 ms for a
 * filtered page and the overview's queries, ≤ 200 ms for a consumer-scoped payload search). It
 * prints figures; it never passes or fails on them.
 * Options: --log-messages 2000000 --log-attempts 10000000 (0 skips) --log-consumers 1000
 *          --log-endpoints 5000 --log-days 30 --log-runs 50 --log-dir <dir> (default: under the
 *          system's temp dir) --log-keep (keep the seeded database, and reuse it when it was seeded
 *          with the same options) --log-explain (print the plan of each query that misses)
 *          --log-only "payload,status=" (only the queries whose name contains one of these)
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Ctx } from "../lib/context";
import { getConfig } from "../lib/config";
import { createSql, ormOver, type Sql } from "../lib/db/client";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { migrateDatabase } from "../lib/db/migrate";
import { listAlerts } from "../lib/alerts/queries";
import { endpointStats } from "../lib/stats/endpoint-stats";
import { endpointHealthCounts } from "../lib/endpoints/health-counts";
import { listMessages, ListMessagesQuery } from "../lib/messages";
import { encodeCursor, PageQuery } from "../lib/pagination";
import { listRecoveries } from "../lib/recoveries/queries";
import { getStats } from "../lib/stats/queries";
import { EVENT_TYPES, seedId, seedLogData, type LogSeedOptions } from "./log-seed";
import { int, ms, percentile, table } from "./stats";
import { runAsScript } from "./system";

export const LOG_OPTIONS = {
  "log-messages": { type: "string", default: "2000000" },
  "log-attempts": { type: "string", default: "10000000" },
  "log-consumers": { type: "string", default: "1000" },
  "log-endpoints": { type: "string", default: "5000" },
  "log-days": { type: "string", default: "30" },
  "log-runs": { type: "string", default: "50" },
  "log-dir": { type: "string", default: path.join(os.tmpdir(), "webhook-admin-bench-log") },
  "log-keep": { type: "boolean", default: false },
  "log-explain": { type: "boolean", default: false },
  "log-only": { type: "string", default: "" },
} as const;

export type LogOptions = LogSeedOptions & { runs: number; dir: string; keep: boolean; explain: boolean; only: string[] };

export function logOptions(values: Record<string, string | boolean | undefined>): LogOptions {
  return {
    messages: Number(values["log-messages"]),
    attempts: Number(values["log-attempts"]),
    consumers: Number(values["log-consumers"]),
    endpoints: Number(values["log-endpoints"]),
    days: Number(values["log-days"]),
    runs: Number(values["log-runs"]),
    dir: String(values["log-dir"]),
    keep: Boolean(values["log-keep"]),
    explain: Boolean(values["log-explain"]),
    only: String(values["log-only"] ?? "").split(",").filter(Boolean),
  };
}

export type LogFigure = { name: string; group: string; goalMs: number | null; runs: number; p50: number; p95: number; max: number; rows: number };

const MESSAGE_PAGE = 50; // the dashboard's message log asks for 50 a page
const FILTERED_GOAL_MS = 50;
const SEARCH_GOAL_MS = 200;
const OVERVIEW_GOAL_MS = 50;

type Case = { group: string; name: string; goalMs: number | null; runs?: number; run: () => Promise<number> };

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

export async function runLogQueries(o: LogOptions, say: (line?: string) => void): Promise<{ figures: LogFigure[]; description: string }> {
  const seedKey = JSON.stringify({ messages: o.messages, attempts: o.attempts, consumers: o.consumers, endpoints: o.endpoints, days: o.days });
  if (!o.keep || !existsSync(o.dir)) await rm(o.dir, { recursive: true, force: true });
  // The same server settings as the rest of the bench; fsync is off only because nothing here
  // measures writes (it changes no plan), and the WAL has room for the whole load.
  const settings = { shared_buffers: "512MB", max_wal_size: "16GB", checkpoint_timeout: "1h", fsync: "off", synchronous_commit: "off", full_page_writes: "off" };
  const server = await startEmbeddedPostgres({ dir: o.dir, settings, log: say });
  const sql = createSql(server.url, { max: 1, name: "bench-log" });
  const description = `embedded PostgreSQL in ${o.dir}, shared_buffers=${settings.shared_buffers}, otherwise PostgreSQL's defaults`;
  try {
    await migrateDatabase(server.url);
    await sql`create table if not exists bench_log_seed (options text not null, end_ms bigint not null)`;
    const [seeded] = await sql<{ options: string; end_ms: string }[]>`select options, end_ms from bench_log_seed`;
    let endMs: number;
    if (seeded && seeded.options === seedKey) {
      endMs = Number(seeded.end_ms);
      say(`Reusing the database seeded ${new Date(endMs).toISOString()} with the same options (--log-keep).`);
    } else {
      if (seeded) throw new Error(`${o.dir} holds data seeded with other options (${seeded.options}); run without --log-keep to start over.`);
      say(`Seeding by SQL into ${o.dir}…`);
      const t = performance.now();
      ({ endMs } = await seedLogData(sql, o, (line) => say(line)));
      await sql`insert into bench_log_seed (options, end_ms) values (${seedKey}, ${endMs})`;
      say(`Seeded in ${((performance.now() - t) / 1000).toFixed(0)} s.`);
    }
    const [sizes] = await sql<{ messages: string; deliveries: string; attempts: string; rollup: string; failed: string; db: string }[]>`
      select (select count(*) from messages) as messages, (select count(*) from deliveries) as deliveries,
             (select count(*) from attempts) as attempts, (select count(*) from attempt_stats) as rollup,
             (select count(*) from deliveries where status = 'failed') as failed, pg_size_pretty(pg_database_size(current_database())) as db`;
    say(
      `Data: ${int(Number(sizes!.messages))} messages, ${int(Number(sizes!.deliveries))} deliveries (${int(Number(sizes!.failed))} failed), ` +
        `${int(Number(sizes!.attempts))} attempts, ${int(Number(sizes!.rollup))} rollup rows; database ${sizes!.db}.`,
    );

    const figures = await measure(sql, server.url, o, endMs, say);
    return { figures, description };
  } finally {
    await sql.end({ timeout: 5 }).catch(() => {});
    await server.stop();
    if (!o.keep) await rm(o.dir, { recursive: true, force: true });
  }
}

async function measure(sql: Sql, url: string, o: LogOptions, endMs: number, say: (line?: string) => void): Promise<LogFigure[]> {
  const drizzleSql = createSql(url, { max: 1, name: "bench-log-queries" });
  // With --log-explain, the statements a missing query's lib function sends are captured to be explained.
  let captured: { query: string; params: unknown[] }[] | null = null;
  const logger = { logQuery: (query: string, params: unknown[]) => captured?.push({ query, params }) };
  const ctx: Ctx = { actor: { type: "system" }, sql: drizzleSql, db: ormOver(drizzleSql, { logger }), config: getConfig() };
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const spanMs = o.days * DAY;
  const perConsumer = Math.max(1, Math.round(o.endpoints / o.consumers));
  const endpointCount = o.consumers * perConsumer;

  // Consumers as the seed made them: consumer k's uid is log-k; the largest is log-0.
  const consumerUid = (k: number) => `log-${k}`;
  const randomConsumer = () => Math.floor(Math.random() * o.consumers);
  const randomEndpoint = () => seedId("ep", Math.floor(Math.random() * endpointCount));
  const [largest] = await sql<{ n: string }[]>`select count(*) as n from messages where consumer_id = ${seedId("con", 0)}`;
  // A deep page: the one that starts at a random time a week to the whole span back.
  const deepCursor = () => {
    const at = endMs - 7 * DAY - Math.floor(Math.random() * Math.max(1, spanMs - 7 * DAY));
    return encodeCursor({ createdAt: new Date(at), id: `msg_${"z".repeat(26)}` });
  };
  const page = async (filters: Record<string, string | undefined>) => {
    const query = PageQuery.extend(ListMessagesQuery.shape).parse({ limit: String(MESSAGE_PAGE), ...filters });
    return (await listMessages(ctx, query)).data.length;
  };
  // A needle: the order id of a random message of consumer k (any age; found by the seed's formula).
  const needles = new Map<number, string[]>();
  const needleOf = async (k: number) => {
    if (!needles.has(k)) {
      const rows = await sql<{ event_id: string }[]>`
        select event_id from messages where consumer_id = ${seedId("con", k)} order by created_at desc offset floor(random() * 200) limit 20`;
      needles.set(k, rows.map((r) => r.event_id.replace("evt_", "ord_")));
    }
    return pick(needles.get(k)!.length ? needles.get(k)! : ["ord_none"]);
  };
  const customerOf = (k: number) => JSON.stringify({ customer: `cus_${k}_${Math.floor(Math.random() * 50)}` });
  const iso = (t: number) => new Date(t).toISOString();
  const at = (back: number) => iso(endMs - back);
  const randomHour = () => {
    const start = endMs - HOUR - Math.floor(Math.random() * (spanMs - HOUR));
    return { since: iso(start), until: iso(start + HOUR) };
  };
  const searchRuns = Math.max(5, Math.floor(o.runs / 5));

  const F = "message log";
  const S = "payload search";
  const O = "overview";
  const allCases: Case[] = [
    { group: F, name: "no filter, first page", goalMs: FILTERED_GOAL_MS, run: () => page({}) },
    { group: F, name: "no filter, deep page", goalMs: FILTERED_GOAL_MS, run: () => page({ cursor: deepCursor() }) },
    { group: F, name: "consumer (random), first page", goalMs: FILTERED_GOAL_MS, run: () => page({ consumer: consumerUid(randomConsumer()) }) },
    { group: F, name: "consumer (random), deep page", goalMs: FILTERED_GOAL_MS, run: () => page({ consumer: consumerUid(randomConsumer()), cursor: deepCursor() }) },
    { group: F, name: `consumer (largest, ${int(Number(largest!.n))} msgs), deep page`, goalMs: FILTERED_GOAL_MS, run: () => page({ consumer: consumerUid(0), cursor: deepCursor() }) },
    { group: F, name: "endpoint_id (random), first page", goalMs: FILTERED_GOAL_MS, run: () => page({ endpoint_id: randomEndpoint() }) },
    { group: F, name: "endpoint_id (random), deep page", goalMs: FILTERED_GOAL_MS, run: () => page({ endpoint_id: randomEndpoint(), cursor: deepCursor() }) },
    { group: F, name: "consumer + endpoint_id, first page", goalMs: FILTERED_GOAL_MS, run: () => {
      const k = randomConsumer();
      return page({ consumer: consumerUid(k), endpoint_id: seedId("ep", k + o.consumers * Math.floor(Math.random() * perConsumer)) });
    } },
    { group: F, name: "event_type (random), first page", goalMs: FILTERED_GOAL_MS, run: () => page({ event_type: pick(EVENT_TYPES) }) },
    { group: F, name: "event_type (random), deep page", goalMs: FILTERED_GOAL_MS, run: () => page({ event_type: pick(EVENT_TYPES), cursor: deepCursor() }) },
    { group: F, name: `event_type (rare: ${EVENT_TYPES.at(-1)}), deep`, goalMs: FILTERED_GOAL_MS, run: () => page({ event_type: EVENT_TYPES.at(-1), cursor: deepCursor() }) },
    { group: F, name: "status=failed, first page", goalMs: FILTERED_GOAL_MS, run: () => page({ status: "failed" }) },
    { group: F, name: "status=failed, deep page", goalMs: FILTERED_GOAL_MS, run: () => page({ status: "failed", cursor: deepCursor() }) },
    { group: F, name: "status=pending, first page", goalMs: FILTERED_GOAL_MS, run: () => page({ status: "pending" }) },
    { group: F, name: "consumer + status=failed, first page", goalMs: FILTERED_GOAL_MS, run: () => page({ consumer: consumerUid(randomConsumer()), status: "failed" }) },
    { group: F, name: "consumer + event_type, first page", goalMs: FILTERED_GOAL_MS, run: () => page({ consumer: consumerUid(randomConsumer()), event_type: pick(EVENT_TYPES) }) },
    { group: F, name: "since (last 24 h), first page", goalMs: FILTERED_GOAL_MS, run: () => page({ since: at(DAY) }) },
    { group: F, name: "since + until (a random hour)", goalMs: FILTERED_GOAL_MS, run: () => page(randomHour()) },
    { group: F, name: "consumer + since + until (a random hour)", goalMs: FILTERED_GOAL_MS, run: () => page({ consumer: consumerUid(randomConsumer()), ...randomHour() }) },
    { group: S, name: "consumer (random) + customer (~2 % of its msgs)", goalMs: SEARCH_GOAL_MS, run: () => {
      const k = randomConsumer();
      return page({ consumer: consumerUid(k), payload_contains: customerOf(k) });
    } },
    { group: S, name: "consumer (random) + order id (1 message)", goalMs: SEARCH_GOAL_MS, run: async () => {
      const k = randomConsumer();
      return page({ consumer: consumerUid(k), payload_contains: JSON.stringify({ order: { id: await needleOf(k) } }) });
    } },
    { group: S, name: "consumer (random) + no match", goalMs: SEARCH_GOAL_MS, run: () => page({ consumer: consumerUid(randomConsumer()), payload_contains: '{"customer":"cus_nobody"}' }) },
    { group: S, name: "consumer (largest) + customer", goalMs: SEARCH_GOAL_MS, run: () => page({ consumer: consumerUid(0), payload_contains: customerOf(0) }) },
    { group: S, name: "consumer (largest) + order id (1 message)", goalMs: SEARCH_GOAL_MS, runs: searchRuns, run: async () =>
      page({ consumer: consumerUid(0), payload_contains: JSON.stringify({ order: { id: await needleOf(0) } }) }) },
    { group: S, name: "consumer (largest) + last 24 h + order id", goalMs: SEARCH_GOAL_MS, run: async () =>
      page({ consumer: consumerUid(0), since: at(DAY), payload_contains: JSON.stringify({ order: { id: await needleOf(0) } }) }) },
    { group: S, name: "every consumer + status (~25 %), first page", goalMs: null, runs: 3, run: () => page({ payload_contains: '{"status":"overdue"}' }) },
    { group: S, name: "every consumer + order id (1 message)", goalMs: null, runs: 3, run: async () =>
      page({ payload_contains: JSON.stringify({ order: { id: await needleOf(randomConsumer()) } }) }) },
    { group: O, name: "endpoint health tiles", goalMs: OVERVIEW_GOAL_MS, run: async () => (await endpointHealthCounts(ctx), 1) },
    { group: O, name: "recent alerts", goalMs: OVERVIEW_GOAL_MS, run: async () => (await listAlerts(ctx, { limit: 50 })).data.length },
    { group: O, name: "running recoveries", goalMs: OVERVIEW_GOAL_MS, run: async () => (await listRecoveries(ctx, { limit: 250, state: "running" })).data.length },
    { group: O, name: "GET /stats, last hour by the minute", goalMs: OVERVIEW_GOAL_MS, run: () => stats({ since: new Date(endMs - HOUR), until: new Date(endMs), bucket: "minute" }) },
    { group: O, name: "GET /stats, last 24 h by the hour", goalMs: OVERVIEW_GOAL_MS, run: () => stats({ since: new Date(endMs - DAY), until: new Date(endMs), bucket: "hour" }) },
    { group: O, name: "GET /stats, last 7 days by the hour", goalMs: OVERVIEW_GOAL_MS, run: () => stats({ since: new Date(endMs - 7 * DAY), until: new Date(endMs), bucket: "hour" }) },
    { group: O, name: `GET /stats, last ${o.days} days by the day`, goalMs: OVERVIEW_GOAL_MS, run: () => stats({ since: new Date(endMs - spanMs), until: new Date(endMs), bucket: "day" }) },
    { group: O, name: "GET /stats, a consumer, 7 days by the hour", goalMs: OVERVIEW_GOAL_MS, run: () =>
      stats({ consumer: consumerUid(randomConsumer()), since: new Date(endMs - 7 * DAY), until: new Date(endMs), bucket: "hour" }) },
    { group: O, name: "GET /stats, an endpoint, 24 h by the minute", goalMs: OVERVIEW_GOAL_MS, run: () =>
      stats({ endpoint_id: randomEndpoint(), since: new Date(endMs - DAY), until: new Date(endMs), bucket: "minute" }) },
    { group: O, name: "GET /endpoints/{id}/stats, 24 h", goalMs: OVERVIEW_GOAL_MS, run: async () =>
      (await endpointStats(ctx, randomEndpoint(), { since: new Date(endMs - DAY) }), 1) },
  ];
  const cases = o.only.length ? allCases.filter((c) => o.only.some((part) => `${c.group}: ${c.name}`.includes(part))) : allCases;
  async function stats(query: Parameters<typeof getStats>[1]): Promise<number> {
    return (await getStats(ctx, query)).data.length;
  }

  const load = () => os.loadavg().map((n) => n.toFixed(1)).join(", ");
  say(`Load average (1, 5, 15 min) before measuring: ${load()} on ${os.cpus().length} CPUs.`);
  const figures: LogFigure[] = [];
  say(`\n${"query".padEnd(52)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"max".padStart(8)}  goal`);
  for (const c of cases) {
    const runs = c.runs ?? o.runs;
    for (let i = 0; i < Math.min(3, runs); i++) await c.run(); // warm: plans, caches, connections
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      rows += await c.run();
      times.push(performance.now() - t);
    }
    const f: LogFigure = { name: c.name, group: c.group, goalMs: c.goalMs, runs, p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(...times), rows: rows / runs };
    figures.push(f);
    say(`${`${c.group}: ${c.name}`.padEnd(52)} ${ms(f.p50).padStart(8)} ${ms(f.p95).padStart(8)} ${ms(f.max).padStart(8)}  ${verdict(f)}`);
  }
  say(`Load average after measuring: ${load()}.`);
  if (o.explain) {
    for (const c of cases) {
      const f = figures.find((x) => x.name === c.name)!;
      if (f.goalMs === null || f.p95 <= f.goalMs) continue;
      captured = [];
      await c.run();
      const statements = captured;
      captured = null;
      say(`\nPlan of the slowest statement of "${c.group}: ${c.name}" (p95 ${ms(f.p95)}):`);
      say(await slowestPlan(drizzleSql, statements));
    }
  }
  await drizzleSql.end({ timeout: 5 });
  return figures;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each statement, with the parameters it was sent with, on drizzle's
 * own connection (drizzle passes json parameters through as text; a plain connection would encode
 * them once more and explain a different query); the slowest one's plan.
 */
async function slowestPlan(sql: Sql, statements: { query: string; params: unknown[] }[]): Promise<string> {
  let slowest = { ms: -1, text: "(no statements)" };
  for (const { query, params } of statements) {
    const rows = await sql.unsafe<{ "QUERY PLAN": string }[]>(`explain (analyze, buffers) ${query}`, params as never[]);
    const text = rows.map((r) => r["QUERY PLAN"]).join("\n");
    const time = Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? 0);
    if (time > slowest.ms) slowest = { ms: time, text: `${query}\n-- params: ${JSON.stringify(params)}\n${text}` };
  }
  return slowest.text;
}

export function verdict(f: LogFigure): string {
  if (f.goalMs === null) return "(no goal)";
  return `${f.p95 <= f.goalMs ? "meets" : "MISSES"} ≤ ${f.goalMs} ms`;
}

/** The figures as the summary table prints them. */
export function logTable(figures: LogFigure[]): string {
  return table([
    ["query", "p50", "p95", "max", "rows/page", "goal (p95)"],
    ...figures.map((f) => [`${f.group}: ${f.name}`, ms(f.p50), ms(f.p95), ms(f.max), f.rows.toFixed(0), verdict(f)]),
  ]);
}

async function main() {
  const { values } = parseArgs({ options: LOG_OPTIONS });
  const o = logOptions(values);
  const say = (line = "") => console.log(line);
  const { figures, description } = await runLogQueries(o, say);
  say(`\n${logTable(figures)}\n\n${description}`);
}

runAsScript(import.meta.filename, main);
