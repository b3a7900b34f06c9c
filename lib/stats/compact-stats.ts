import type { Ctx } from "../context";
import type { Sql } from "../db/client";

// Any fixed number: one compaction at a time across every worker; the others skip their turn.
const COMPACT_LOCK = 727_013;

/**
 * How often each worker process folds the appended rollup rows (lib/db/schema/stats.ts). Readers
 * scan what is appended, so the interval bounds what an overview query reads at full delivery
 * rate: 2 s keeps that a few milliseconds, where 10 s made it most of the query's time (ADR 0014).
 */
export const COMPACT_EVERY_MS = 2_000;

/**
 * Folds every appended rollup row (attempt_stats_pending) into attempt_stats, by the minute and by
 * the UTC hour, for each endpoint, each consumer and everything together, in one transaction: a
 * reader sees each attempt either still appended or folded, never both and never neither. Rows an
 * outcome write is still committing are left for the next turn. Returns how many rollup rows it
 * wrote, or null when another worker's compaction was running. It takes the part of a ctx it uses
 * (the pool, outside any transaction: it opens its own, and its lock lasts until that commits), so
 * the worker's compaction loop and the benchmarks call it with a pool alone.
 */
export async function compactStats({ ctx }: { ctx: Pick<Ctx, "sql"> }): Promise<number | null> {
  return (ctx.sql as Sql).begin(async (tx) => {
    const [lock] = await tx<{ locked: boolean }[]>`select pg_try_advisory_xact_lock(${COMPACT_LOCK}) as locked`;
    if (!lock?.locked) return null;
    const result = await tx`
      with moved as (
        delete from attempt_stats_pending
        returning endpoint_id, consumer_id, minute, date_trunc('hour', minute, 'UTC') as hour, attempts, succeeded, failed, latency_buckets, latency_counts
      ),
      -- Histograms merged per endpoint and minute first: appended rows are many, their keys few.
      by_minute as (
        select endpoint_id, consumer_id, minute, hour, k, sum(n)::int as n
        from moved, unnest(latency_buckets, latency_counts) as h(k, n) group by 1, 2, 3, 4, 5
      ),
      hist as (
        select scope, bucket_seconds, t, array_agg(k order by k) as ks, array_agg(n order by k) as ns
        from (
          -- Each grouping set is one series: an endpoint's, a consumer's or everything's, by minute or hour.
          select case when grouping(endpoint_id) = 0 then endpoint_id when grouping(consumer_id) = 0 then consumer_id else '' end as scope,
                 case when grouping(minute) = 0 then 60 else 3600 end as bucket_seconds, coalesce(minute, hour) as t, k, sum(n)::int as n
          from by_minute
          group by grouping sets ((endpoint_id, minute, k), (endpoint_id, hour, k), (consumer_id, minute, k), (consumer_id, hour, k), (minute, k), (hour, k))
        ) g
        group by 1, 2, 3
      ),
      totals as (
        select case when grouping(endpoint_id) = 0 then endpoint_id when grouping(consumer_id) = 0 then consumer_id else '' end as scope,
               case when grouping(minute) = 0 then 60 else 3600 end as bucket_seconds, coalesce(minute, hour) as t,
               sum(attempts)::int as attempts, sum(succeeded)::int as succeeded, sum(failed)::int as failed
        from moved
        group by grouping sets ((endpoint_id, minute), (endpoint_id, hour), (consumer_id, minute), (consumer_id, hour), (minute), (hour))
      )
      insert into attempt_stats (scope, bucket_seconds, t, attempts, succeeded, failed, latency_buckets, latency_counts)
      select scope, bucket_seconds, t, attempts, succeeded, failed, ks, ns from totals join hist using (scope, bucket_seconds, t)
      on conflict (scope, bucket_seconds, t) do update set
        attempts = attempt_stats.attempts + excluded.attempts,
        succeeded = attempt_stats.succeeded + excluded.succeeded,
        failed = attempt_stats.failed + excluded.failed,
        (latency_buckets, latency_counts) = (
          select array_agg(k order by k), array_agg(n order by k)
          from (
            select k, sum(n)::int as n
            from (select * from unnest(attempt_stats.latency_buckets, attempt_stats.latency_counts)
                  union all select * from unnest(excluded.latency_buckets, excluded.latency_counts)) as u(k, n)
            group by k
          ) merged
        )`;
    return result.count;
  });
}
