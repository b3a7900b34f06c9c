-- Wakes the deliver_due job for each time given (null or past: at once): one graphile-worker job
-- per tenth of a second, keyed, so many parks at nearby times add one wake-up between them.
-- First made by migration 0003; applied after the migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_wake_deliveries(p_at timestamptz[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_bucket bigint;
BEGIN
  FOR v_bucket IN
    SELECT DISTINCT CASE WHEN t IS NULL OR t <= clock_timestamp() THEN 0 ELSE ceil(extract(epoch FROM t) * 10)::bigint * 100 END AS b
    FROM unnest(p_at) AS t
    ORDER BY b
  LOOP
    IF v_bucket = 0 THEN
      PERFORM graphile_worker.add_job('deliver_due', '{}'::json, job_key := 'deliver_due', max_attempts := 10);
    ELSE
      PERFORM graphile_worker.add_job('deliver_due', '{}'::json, run_at := to_timestamp(v_bucket / 1000.0),
        job_key := 'deliver_due@' || v_bucket, job_key_mode := 'preserve_run_at', max_attempts := 10);
    END IF;
  END LOOP;
END $$;
