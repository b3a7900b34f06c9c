import type { PendingQuery, Row, TransactionSql } from "postgres";

/**
 * The attempts insert of an outcome write, extended to append what it inserted to the stats
 * rollup: one row per endpoint and minute, in the same statement and transaction. It counts the
 * rows the insert returns, so a write retried after a lost commit answer (whose attempts are
 * already there and insert nothing) counts nothing twice. Appended rows are never updated: two
 * outcome writes in flight, on any number of workers, never wait on one another's rollup rows
 * (an upsert of one row per endpoint and minute would queue every write to a busy endpoint behind
 * the last). lib/stats/compact-stats.ts folds them.
 */
export function withStatsRollup(tx: TransactionSql, insertAttempts: PendingQuery<Row[]>) {
  return tx`
    with inserted as (${insertAttempts} returning endpoint_id, consumer_id, created_at, success, duration_ms),
    by_bucket as (
      select endpoint_id, consumer_id, date_trunc('minute', created_at, 'UTC') as minute,
             webhook_admin_latency_bucket(duration_ms) as k, count(*)::int as n, (count(*) filter (where success))::int as s
      from inserted group by 1, 2, 3, 4
    )
    insert into attempt_stats_pending (endpoint_id, consumer_id, minute, attempts, succeeded, failed, latency_buckets, latency_counts)
    select endpoint_id, consumer_id, minute, sum(n)::int, sum(s)::int, (sum(n) - sum(s))::int, array_agg(k order by k), array_agg(n order by k)
    from by_bucket group by 1, 2, 3`;
}
