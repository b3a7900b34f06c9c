-- The rollup's latency bucket of a duration in ms: exact below 32 ms, then 16 buckets per doubling.
-- lib/stats/histogram.ts computes the same in TypeScript (tests/stats/stats.test.ts checks they
-- agree on every bucket boundary). Immutable: a change is a new function and a new rollup column.
-- First made by migration 0007; applied after the migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_latency_bucket(ms integer) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN ms < 32 THEN greatest(ms, 0)
    ELSE 32 + (width_bucket(least(ms, 2097151), '{32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576}'::int[]) - 1) * 16
            + (least(ms, 2097151) >> width_bucket(least(ms, 2097151), '{32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576}'::int[])) - 16
  END)::smallint
$$;
