-- Wakes the deliver_due job for each time given (null or past: at once): one graphile-worker job
-- per tenth of a second, keyed, so many parks at nearby times add one wake-up between them.
-- First made by migration 0003; applied after the migrations by lib/db/functions.ts.
--
-- webhook_admin_wake_deliveries_of also names the queue kinds coming due (null: any): the job
-- carries them, so a worker claims only in the lanes serving them (worker/tasks/deliver-due.ts).
-- A recovery's claim parks its run's items many times a second, and each wake-up for them had the
-- live lane run an empty claim too. Each set of kinds has its own job per tenth of a second.
-- A new function beside the released one, whose arguments a release's workers re-create as they
-- were when they start (CREATE OR REPLACE): that one wakes every lane.
CREATE OR REPLACE FUNCTION webhook_admin_wake_deliveries_of(p_at timestamptz[], p_kinds smallint[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_bucket bigint;
  v_payload json := CASE WHEN p_kinds IS NULL THEN '{}'::json ELSE json_build_object('kinds', p_kinds) END;
  v_key text := CASE WHEN p_kinds IS NULL THEN '' ELSE '@' || array_to_string(p_kinds, ',') END;
BEGIN
  FOR v_bucket IN
    SELECT DISTINCT CASE WHEN t IS NULL OR t <= clock_timestamp() THEN 0 ELSE ceil(extract(epoch FROM t) * 10)::bigint * 100 END AS b
    FROM unnest(p_at) AS t
    ORDER BY b
  LOOP
    IF v_bucket = 0 THEN
      PERFORM graphile_worker.add_job('deliver_due', v_payload, job_key := 'deliver_due' || v_key, max_attempts := 10);
    ELSE
      PERFORM graphile_worker.add_job('deliver_due', v_payload, run_at := to_timestamp(v_bucket / 1000.0),
        job_key := 'deliver_due@' || v_bucket || v_key, job_key_mode := 'preserve_run_at', max_attempts := 10);
    END IF;
  END LOOP;
END $$;

CREATE OR REPLACE FUNCTION webhook_admin_wake_deliveries(p_at timestamptz[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_admin_wake_deliveries_of(p_at, NULL);
END $$;
