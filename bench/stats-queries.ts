/**
 * `node --import tsx bench/stats-queries.ts`: how fast GET /stats and GET /endpoints/{id}/stats
 * answer from a week of rollup. Writes the rollup by SQL as a week of steady traffic leaves it
 * (`--consumers` × `--endpoints-per` endpoints, each with attempts in every minute, a few latency
 * buckets a row), plus `--pending` appended rows not yet folded (what the 2 s between compactions
 * leave at 5,000 attempts/s over 20 endpoints), then times each query the dashboard makes, `--runs` times, and prints p50 and p95.
 * Options: --consumers 20 --endpoints-per 10 --days 7 --pending 4000 --runs 50
 */
import { parseArgs } from "node:util";
import { prepareDatabase } from "./database";
import { getConfig } from "../lib/config";
import { createSql, ormOver } from "../lib/db/client";
import type { Ctx } from "../lib/context";
import { getStats } from "../lib/stats/queries";
import { endpointStats } from "../lib/stats/endpoint-stats";
import { percentile } from "./stats";

const { values } = parseArgs({
  options: {
    consumers: { type: "string", default: "20" },
    "endpoints-per": { type: "string", default: "10" },
    days: { type: "string", default: "7" },
    pending: { type: "string", default: "4000" },
    runs: { type: "string", default: "50" },
  },
});
const consumers = Number(values.consumers);
const perConsumer = Number(values["endpoints-per"]);
const days = Number(values.days);
const runs = Number(values.runs);

async function main() {
  const db = await prepareDatabase({ fsync: true, log: () => {} });
  const sql = createSql(db.url, { max: 2, name: "stats-queries" });
  const started = performance.now();
  await sql`insert into consumers (id, uid, name) select 'con_' || c, 'c' || c, 'c' || c from generate_series(1, ${consumers}) c`;
  await sql`
    insert into endpoints (id, consumer_id, url)
    select 'ep_' || c || '_' || e, 'con_' || c, 'http://127.0.0.1:9/' from generate_series(1, ${consumers}) c, generate_series(1, ${perConsumer}) e`;
  // Rows as the compaction writes them: each endpoint's minutes, each consumer's, everyone's; then
  // the hours of each. Every minute: 25 attempts an endpoint, one failed, seven latency buckets.
  const minutes = days * 1440;
  const series = [
    { scope: "'ep_' || c || '_' || e", keys: `generate_series(1, ${consumers}) c, generate_series(1, ${perConsumer}) e`, factor: 1 },
    { scope: "'con_' || c", keys: `generate_series(1, ${consumers}) c`, factor: perConsumer },
    { scope: "''", keys: "(select 1) c", factor: perConsumer * consumers },
  ];
  for (const { scope, keys, factor } of series) {
    const counts = [5, 8, 6, 3, 1, 1, 1].map((n) => n * factor).join(", ");
    await sql.unsafe(`
      insert into attempt_stats (scope, bucket_seconds, t, attempts, succeeded, failed, latency_buckets, latency_counts)
      select ${scope}, 60, date_trunc('minute', now()) - m * interval '1 minute', ${25 * factor}, ${24 * factor}, ${factor},
             array[3, 4, 5, 6, 7, 40, 120]::smallint[], array[${counts}]
      from ${keys}, generate_series(0, ${minutes - 1}) m`);
  }
  await sql`
    insert into attempt_stats (scope, bucket_seconds, t, attempts, succeeded, failed, latency_buckets, latency_counts)
    select scope, 3600, date_trunc('hour', t, 'UTC'), sum(attempts), sum(succeeded), sum(failed), array[3, 4, 5, 6, 7, 40, 120]::smallint[],
           array[sum(latency_counts[1]), sum(latency_counts[2]), sum(latency_counts[3]), sum(latency_counts[4]), sum(latency_counts[5]),
                 sum(latency_counts[6]), sum(latency_counts[7])]::int[]
    from attempt_stats where bucket_seconds = 60 group by 1, 3`;
  await sql`
    insert into attempt_stats_pending (endpoint_id, consumer_id, minute, attempts, succeeded, failed, latency_buckets, latency_counts)
    select 'ep_' || (1 + i % ${consumers}) || '_' || (1 + i % ${perConsumer}), 'con_' || (1 + i % ${consumers}), date_trunc('minute', now()),
           3, 3, 0, array[4, 5]::smallint[], array[2, 1]
    from generate_series(1, ${Number(values.pending)}) i`;
  await sql`vacuum analyze attempt_stats`;
  await sql`analyze attempt_stats_pending`;
  const [{ rows } = { rows: 0 }] = await sql<{ rows: number }[]>`select count(*)::int as rows from attempt_stats`;
  console.log(
    `rollup: ${rows.toLocaleString("en-US")} rows (${consumers} consumers × ${perConsumer} endpoints, ${days} days by the minute and hour) ` +
      `+ ${Number(values.pending).toLocaleString("en-US")} appended, written in ${((performance.now() - started) / 1000).toFixed(0)} s; ${db.description}`,
  );

  const drizzleSql = createSql(db.url, { max: 1, name: "stats-queries" });
  const ctx: Ctx = { actor: { type: "system" }, sql: drizzleSql, db: ormOver(drizzleSql), config: getConfig() };
  const now = Date.now();
  const ago = (ms: number) => new Date(now - ms);
  const HOUR = 3_600_000;
  const cases: [string, () => Promise<unknown>][] = [
    ["overview, last hour by the minute", () => getStats(ctx, { since: ago(HOUR), bucket: "minute" })],
    ["overview, last day by the hour", () => getStats(ctx, { since: ago(24 * HOUR), bucket: "hour" })],
    ["overview, last week by the hour", () => getStats(ctx, { since: ago(7 * 24 * HOUR), bucket: "hour" })],
    ["overview, last week by the day", () => getStats(ctx, { since: ago(7 * 24 * HOUR), bucket: "day" })],
    ["one consumer, last week by the hour", () => getStats(ctx, { consumer: "con_3", since: ago(7 * 24 * HOUR), bucket: "hour" })],
    ["one endpoint, last day by the minute", () => getStats(ctx, { endpoint_id: "ep_3_4", since: ago(24 * HOUR), bucket: "minute" })],
    ["GET /endpoints/{id}/stats, last 24 h", () => endpointStats(ctx, "ep_3_4", { since: new Date(now - 24 * HOUR - 17 * 60_000) })],
  ];
  for (const [name, run] of cases) {
    for (let i = 0; i < 3; i++) await run();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await run();
      times.push(performance.now() - t);
    }
    console.log(`${name.padEnd(40)} p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`);
  }
  await drizzleSql.end();
  await sql.end();
  await db.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
