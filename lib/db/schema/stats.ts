import { index, integer, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/*
 * The attempt statistics rollup (GET /stats, GET /endpoints/{id}/stats, the dashboard's charts):
 * counts and a latency histogram per time bucket, so no answer ever counts attempts.
 *
 * A histogram is sparse: `latency_buckets` lists the buckets that hold attempts (ascending), and
 * `latency_counts` how many each. Bucket i is fixed by the SQL function webhook_admin_latency_bucket
 * (lib/stats/histogram.ts describes the buckets and reads them back).
 */

/**
 * What each outcome write adds, in its own transaction: one row per endpoint and minute of that
 * write, appended and never updated, so concurrent writers never wait on one another's rows. The
 * compaction (lib/stats/compact-stats.ts) folds them into attempt_stats every few seconds. No index:
 * nothing reads one row, and readers scan the few seconds' worth that is here.
 */
export const attemptStatsPending = pgTable("attempt_stats_pending", {
  endpointId: text("endpoint_id").notNull(),
  consumerId: text("consumer_id").notNull(),
  minute: ts("minute").notNull(),
  attempts: integer("attempts").notNull(),
  succeeded: integer("succeeded").notNull(),
  failed: integer("failed").notNull(),
  latencyBuckets: smallint("latency_buckets").array().notNull(),
  latencyCounts: integer("latency_counts").array().notNull(),
});

/**
 * The folded rollup, one row per scope, bucket size and bucket. `scope` is an endpoint id (`ep_…`),
 * a consumer id (`con_…`) or '' for every consumer (ids are prefixed, so they never collide); each
 * is kept by the minute and by the UTC hour, so a week's chart reads 168 rows, not 10,080 per
 * endpoint. Hourly rows are kept STATS_RETENTION, minute rows STATS_MINUTE_RETENTION (the sweep,
 * lib/retention); a consumer's erasure removes its own and its endpoints' rows (the '' series keeps
 * the totals, which name nobody). Partitioned by RANGE (bucket_seconds, t), a UTC day of minute rows
 * or a UTC month of hourly rows each, which the sweep makes ahead and drops past their retention
 * (migration 0020, ADR 0034; drizzle cannot say PARTITION BY: this describes the columns and keys).
 */
export const attemptStats = pgTable(
  "attempt_stats",
  {
    scope: text("scope").notNull(),
    /** 60 or 3600. */
    bucketSeconds: integer("bucket_seconds").notNull(),
    t: ts("t").notNull(),
    attempts: integer("attempts").notNull(),
    succeeded: integer("succeeded").notNull(),
    failed: integer("failed").notNull(),
    latencyBuckets: smallint("latency_buckets").array().notNull(),
    latencyCounts: integer("latency_counts").array().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.bucketSeconds, t.t] }),
    // The retention sweep finds the rows past STATS_RETENTION / STATS_MINUTE_RETENTION by time
    // (the primary key leads with the scope). New rows only add to it: folds update rows in place.
    index("attempt_stats_t_idx").on(t.bucketSeconds, t.t),
  ],
);
