import { sql, type SQL } from "drizzle-orm";
import { consumerScope, onReplica, type Ctx } from "../context";
import type { Executor } from "../db/client";
import { NotFoundError, ValidationError } from "../errors";
import { findConsumer } from "../consumers/queries";
import { findEndpointRow } from "../endpoints/queries";
import { percentile, type Histogram } from "./histogram";
import { BUCKET_MS, MAX_BUCKETS, type StatBucket, type StatsQuery } from "./schemas";

/** Whose attempts a rollup read counts: one endpoint's, one consumer's, or everyone's. */
export type StatsScope = { endpointId: string } | { consumerId: string } | "all";

const DAY_MS = 86_400_000;

/**
 * GET /stats: attempts, successes, failures and latency p50/p99 per bucket, oldest first, every
 * bucket present (zeros and null percentiles where nothing was attempted). Buckets are whole UTC
 * minutes, hours or days: `since` is taken back to the start of its bucket and `until` (exclusive)
 * on to the end of its. Defaults: until now, since 24 h before until; the bucket by the span — by
 * the minute up to 6 h, by the hour up to 14 days, by the day beyond.
 */
export async function getStats(ctx: Ctx, query: StatsQuery) {
  const until = query.until ?? new Date();
  const since = query.since ?? new Date(until.getTime() - DAY_MS);
  if (since.getTime() >= until.getTime()) {
    throw new ValidationError("The query string is invalid.", [{ path: "since", message: "must be before until" }], 400);
  }
  const span = until.getTime() - since.getTime();
  const bucket: StatBucket = query.bucket ?? (span <= 6 * 3_600_000 ? "minute" : span <= 14 * DAY_MS ? "hour" : "day");
  const step = BUCKET_MS[bucket];
  const from = Math.floor(since.getTime() / step) * step;
  const to = Math.ceil(until.getTime() / step) * step;
  const count = (to - from) / step;
  if (count > MAX_BUCKETS) {
    throw new ValidationError(
      "The query string is invalid.",
      [{ path: "bucket", message: `${count} ${bucket} buckets from since to until; at most ${MAX_BUCKETS}: narrow the range or use a larger bucket` }],
      400,
    );
  }
  const scope = await resolveScope(ctx, query);
  const rows = await readBuckets(onReplica(ctx).db, scope, { from: new Date(from), to: new Date(to), step, source: bucket === "minute" ? 60 : 3600 });
  const byTime = new Map(rows.map((r) => [Number(r.t), r]));
  const data = Array.from({ length: count }, (_, i) => {
    const t = from + i * step;
    const row = byTime.get(t);
    const h = row ? histogram(row) : null;
    return {
      t: new Date(t).toISOString(),
      attempts: row ? Number(row.attempts) : 0,
      succeeded: row ? Number(row.succeeded) : 0,
      failed: row ? Number(row.failed) : 0,
      p50_ms: h ? roundMs(percentile(h, 0.5)) : null,
      p99_ms: h ? roundMs(percentile(h, 0.99)) : null,
    };
  });
  return { bucket, since: new Date(from).toISOString(), until: new Date(to).toISOString(), data };
}

async function resolveScope(ctx: Ctx, query: StatsQuery): Promise<StatsScope> {
  if (query.endpoint_id) {
    const endpoint = await findEndpointRow(ctx, query.endpoint_id);
    if (query.consumer) {
      const consumer = await findConsumer(ctx, query.consumer);
      if (consumer.id !== endpoint.consumerId) throw new NotFoundError("endpoint", query.endpoint_id);
    }
    return { endpointId: endpoint.id };
  }
  if (query.consumer) return { consumerId: (await findConsumer(ctx, query.consumer)).id };
  const own = consumerScope(ctx);
  return own ? { consumerId: own } : "all";
}

/**
 * Totals and percentiles of one endpoint since a time (until another, or now), from the rollup:
 * whole minutes up to the first hour boundary, whole hours from there (the current one included)
 * up to the last hour boundary before `until`, whole minutes after it, and what is appended and
 * not yet folded. `since` counts from the start of its minute and `until` to the end of its.
 * Minute rows are kept STATS_MINUTE_RETENTION: a window's minutes older than that are gone, so its
 * ends count to the hour.
 */
export async function readEndpointTotals(ctx: Ctx, endpointId: string, since: Date, until?: Date) {
  const { db } = ctx;
  const { from, folded, pending } = totalsWindow(since, until);
  const rows = await db.execute<BucketRow>(sql`
    with src as (
      select attempts, succeeded, failed, latency_buckets, latency_counts from attempt_stats
      where scope = ${endpointId} and (${folded})
      union all
      select attempts, succeeded, failed, latency_buckets, latency_counts from attempt_stats_pending
      where endpoint_id = ${endpointId} and ${pending}
    )
    ${aggregate(sql`select timestamptz 'epoch' as bt, * from src`)}`);
  const row = rows[0];
  const h = row ? histogram(row) : null;
  return {
    since: from,
    attempts: row ? Number(row.attempts) : 0,
    succeeded: row ? Number(row.succeeded) : 0,
    failed: row ? Number(row.failed) : 0,
    p50_ms: h ? roundMs(percentile(h, 0.5)) : null,
    p99_ms: h ? roundMs(percentile(h, 0.99)) : null,
  };
}

/**
 * A window of readEndpointTotals and readConsumerAttempts, as rollup rows: whole minutes to the first
 * hour boundary, whole hours to the last, whole minutes after it (`folded`); the appended rows of the
 * window (`pending`). `from` is `since` taken back to its minute.
 */
export function totalsWindow(since: Date, until?: Date) {
  const from = new Date(Math.floor(since.getTime() / 60_000) * 60_000);
  const to = until ? new Date(Math.ceil(until.getTime() / 60_000) * 60_000) : null;
  const firstHour = new Date(Math.ceil(from.getTime() / 3_600_000) * 3_600_000);
  const lastHour = to ? new Date(Math.floor(to.getTime() / 3_600_000) * 3_600_000) : null;
  const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
  const within = (a: Date, b: Date | null) => (b ? sql`t >= ${at(a)} and t < ${at(b)}` : sql`t >= ${at(a)}`);
  // No whole hour in the window: its minutes alone.
  const folded =
    lastHour && lastHour <= firstHour
      ? sql`bucket_seconds = 60 and ${within(from, to)}`
      : sql`(bucket_seconds = 60 and (${within(from, firstHour)}${to && lastHour ? sql` or ${within(lastHour, to)}` : sql``}))
             or (bucket_seconds = 3600 and ${within(firstHour, lastHour)})`;
  const pending = sql`minute >= ${at(from)}${to ? sql` and minute < ${at(to)}` : sql``}`;
  return { from, folded, pending };
}

/** Each of these consumers' attempts from `since` to `until`, from the rollup as readEndpointTotals counts them (0 for none). */
export async function readConsumerAttempts(ctx: Ctx, consumerIds: string[], since: Date, until: Date): Promise<Map<string, number>> {
  const { folded, pending } = totalsWindow(since, until);
  const rows = await ctx.db.execute<{ consumer_id: string; attempts: number }>(sql`
    select consumer_id, sum(attempts)::float8 as attempts from (
      select scope as consumer_id, attempts from attempt_stats where scope = any(${sql.param(consumerIds)}::text[]) and (${folded})
      union all
      select consumer_id, attempts from attempt_stats_pending where consumer_id = any(${sql.param(consumerIds)}::text[]) and ${pending}
    ) src group by consumer_id`);
  const byConsumer = new Map(consumerIds.map((id) => [id, 0]));
  for (const row of rows) byConsumer.set(row.consumer_id, Number(row.attempts));
  return byConsumer;
}

type BucketRow = { t: number; attempts: string; succeeded: string; failed: string; ks: number[]; ns: number[] };

/** The buckets of [from, to) that hold attempts, summed from rollup rows of `source` seconds and the appended rows. */
async function readBuckets(db: Executor, scope: StatsScope, range: { from: Date; to: Date; step: number; source: 60 | 3600 }) {
  const key = scope === "all" ? "" : "endpointId" in scope ? scope.endpointId : scope.consumerId;
  const pending: SQL =
    scope === "all" ? sql`true` : "endpointId" in scope ? sql`endpoint_id = ${scope.endpointId}` : sql`consumer_id = ${scope.consumerId}`;
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  return db.execute<BucketRow>(sql`
    with src as (
      select t, attempts, succeeded, failed, latency_buckets, latency_counts from attempt_stats
      where scope = ${key} and bucket_seconds = ${range.source} and t >= ${from}::timestamptz and t < ${to}::timestamptz
      union all
      select minute, attempts, succeeded, failed, latency_buckets, latency_counts from attempt_stats_pending
      where ${pending} and minute >= ${from}::timestamptz and minute < ${to}::timestamptz
    )
    ${aggregate(sql`select date_bin(${`${range.step / 1000} seconds`}::interval, t, timestamptz '2000-01-01 00:00:00+00') as bt, * from src`)}
    order by t`);
}

// Sums rows per bucket `bt` and merges their histograms; counts as float8, which holds any sum exactly.
function aggregate(binned: SQL): SQL {
  return sql`
    , binned as (${binned}),
    hist as (
      select bt, k, sum(n)::float8 as n from binned, unnest(latency_buckets, latency_counts) as h(k, n) group by bt, k
    )
    select extract(epoch from b.bt)::float8 * 1000 as t, b.attempts, b.succeeded, b.failed, h.ks, h.ns
    from (select bt, sum(attempts)::float8 as attempts, sum(succeeded)::float8 as succeeded, sum(failed)::float8 as failed from binned group by bt) b
    join (select bt, array_agg(k order by k) as ks, array_agg(n order by k) as ns from hist group by bt) h using (bt)`;
}

function histogram(row: BucketRow): Histogram {
  return { buckets: row.ks.map(Number), counts: row.ns.map(Number) };
}

function roundMs(value: number | null): number | null {
  return value === null ? null : Math.round(value);
}
