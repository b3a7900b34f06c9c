CREATE TABLE "attempt_stats" (
	"scope" text NOT NULL,
	"bucket_seconds" integer NOT NULL,
	"t" timestamp (3) with time zone NOT NULL,
	"attempts" integer NOT NULL,
	"succeeded" integer NOT NULL,
	"failed" integer NOT NULL,
	"latency_buckets" smallint[] NOT NULL,
	"latency_counts" integer[] NOT NULL,
	CONSTRAINT "attempt_stats_scope_bucket_seconds_t_pk" PRIMARY KEY("scope","bucket_seconds","t")
);
--> statement-breakpoint
CREATE TABLE "attempt_stats_pending" (
	"endpoint_id" text NOT NULL,
	"consumer_id" text NOT NULL,
	"minute" timestamp (3) with time zone NOT NULL,
	"attempts" integer NOT NULL,
	"succeeded" integer NOT NULL,
	"failed" integer NOT NULL,
	"latency_buckets" smallint[] NOT NULL,
	"latency_counts" integer[] NOT NULL
);
--> statement-breakpoint
-- The rollup's latency bucket of a duration (lib/stats/histogram.ts describes the buckets and reads
-- them back). Never to be changed: every stored histogram depends on it. One expression, so the
-- planner inlines it.
CREATE FUNCTION webhook_admin_latency_bucket(ms integer) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN ms < 32 THEN greatest(ms, 0)
    ELSE 32 + (width_bucket(least(ms, 2097151), '{32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576}'::int[]) - 1) * 16
            + (least(ms, 2097151) >> width_bucket(least(ms, 2097151), '{32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576}'::int[])) - 16
  END)::smallint
$$;--> statement-breakpoint
-- The attempts made before the rollup existed, as if each minute had been one outcome write; the
-- worker's first compaction folds them in.
INSERT INTO "attempt_stats_pending" (endpoint_id, consumer_id, minute, attempts, succeeded, failed, latency_buckets, latency_counts)
SELECT endpoint_id, consumer_id, minute, sum(n)::int, sum(s)::int, (sum(n) - sum(s))::int, array_agg(k ORDER BY k), array_agg(n::int ORDER BY k)
FROM (
  SELECT endpoint_id, consumer_id, date_trunc('minute', created_at, 'UTC') AS minute, webhook_admin_latency_bucket(duration_ms) AS k,
         count(*) AS n, count(*) FILTER (WHERE success) AS s
  FROM attempts GROUP BY 1, 2, 3, 4
) h
GROUP BY 1, 2, 3;
