-- The claim, in one call (one round trip instead of six: a busy worker's event loop adds its lag to
-- every round trip, and claims are taken one at a time per process). Leases due queue rows, at most
-- p_limit, within every endpoint's limits — concurrency cap, rate limit, circuit breaker — counted
-- here so they hold across all worker processes. Everything scanned is claimed, parked or dropped:
-- a row that must wait is moved out of the way, so it never blocks other endpoints' work.
--
-- Three kinds of work share the queue and these limits: scheduled attempts (kind 0), manual resends
-- (1) and recovery items (2). They are scanned, and an endpoint's free slots and rate budget are
-- handed out, in that order: live traffic first, a recovery last. A recovery run's own rate holds
-- here too, where its attempts leave. A worker claims live traffic and recovery items apart, in
-- claims of their own that run side by side (p_kinds), so live traffic never waits for a claim busy
-- with a recovery's rows; the slots live traffic needs are kept from recovery items
-- (claim/apply-limits.sql), and the worker's own room for attempts too (worker/delivery-pump.ts).
--
-- This function orchestrates; each stage is a function of its own in claim/, passing one row set
-- (webhook_admin_claim_item[], claim/types.sql) from stage to stage, each row's decision in it:
--   1. claim/scan-due.sql        the due rows, in serving order (SKIP LOCKED)
--   2. (here)                    the endpoints among them, locked in id order, SKIP LOCKED
--   3. claim/run-budgets.sql     the recovery runs among them: locked, and what each may still send
--   4. claim/apply-limits.sql    each row claimed, parked or dropped — or left due for another claim
--   5. claim/log-run-sends.sql   the runs' sends logged
--   6. claim/drop-stopped.sql    the rows of stopped endpoints removed
--   7. claim/lease.sql           the claimed rows leased, and what their attempts need returned
--   8. claim/park.sql            the rest parked, last, with wake-ups for their times
--
-- Returned rows carry `kind`, `more` (due work remains beyond this claim: the caller claims again;
-- the other workers have been notified too), `probe` (the half-open circuit's single trial), and
-- where each goes as `destination` and `target` (claim/lease.sql): a new kind of destination
-- changes nothing here.
--
-- These files are the functions' source: lib/db/functions.ts applies them after the migrations, on
-- every start, so a change to one is a reviewable diff. A change of this function's arguments or
-- result, once released, is a new function under the next name (_v3): during a rollout the previous
-- release's workers go on calling theirs, and re-create it when they restart (CREATE OR REPLACE,
-- which cannot change a result type), so the old one is dropped only by a later release
-- (docs/operating.md, Upgrading). _v2 since 0015; 0.2.0's webhook_admin_claim_deliveries is the one
-- before. _v2 is not released yet: its result changed in place (url, headers, svix_headers became
-- destination, target), and so did its arguments (p_kinds, p_lock_wait_ms added): any other form is dropped first.
DO $$ DECLARE f regprocedure; BEGIN
  FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
           WHERE p.proname = 'webhook_admin_claim_deliveries_v2' AND p.pronamespace = current_schema()::regnamespace
             AND pg_get_function_identity_arguments(p.oid) <> 'p_limit integer, p_lease_ms integer, p_default_concurrency integer, p_token text, p_lease_wake_at timestamp with time zone, p_kinds smallint[], p_lock_wait_ms integer'
  LOOP
    EXECUTE 'DROP FUNCTION ' || f;
  END LOOP;
END $$;
CREATE OR REPLACE FUNCTION webhook_admin_claim_deliveries_v2(
  p_limit integer, p_lease_ms integer, p_default_concurrency integer, p_token text,
  -- The lease's end, rounded, when this process has not yet woken a job for it (null otherwise):
  -- if the worker dies, that job finds its deliveries due again.
  p_lease_wake_at timestamptz,
  -- The queue kinds served (null: all). A claim of live traffic alone (scheduled and manual) that
  -- finds every endpoint of its rows held waits up to p_lock_wait_ms for them (below).
  p_kinds smallint[] DEFAULT NULL, p_lock_wait_ms integer DEFAULT 200
) RETURNS TABLE (
  id text, kind smallint, message_id text, endpoint_id text, consumer_id text, attempts integer, scheduled_attempts integer,
  created_at timestamptz, payload text, is_test boolean, destination text, target jsonb, ciphertexts text[], probe boolean, more boolean
)
-- Bitmap scans never mark index entries of dead rows, so the leased counts would visit every lease
-- ever taken until vacuum; plain index scans skip them after the first visit. (For the stages too:
-- a function's setting holds for everything it calls.)
LANGUAGE plpgsql SET enable_bitmapscan TO off AS $$
#variable_conflict use_column
DECLARE
  v_lease_end timestamptz := now() + p_lease_ms * interval '1 millisecond';
  v_window integer := p_limit * 2;
  -- A logged recovery send counts for a second and a little more: it reaches the receiver some
  -- milliseconds after the claim, not always by the same few, and the window must hold there too.
  -- (Without the margin, a send released the moment an earlier one stops counting arrived, as often
  -- as not, a few milliseconds less than a second after it.)
  v_run_window interval := interval '1050 milliseconds';
  v_items webhook_admin_claim_item[];
  v_locked text[];
  v_busy text[];
  v_lock_timeout text;
  v_runs webhook_admin_claim_run[];
  v_claimed integer;
  -- Due work seen here but left to another claim (endpoint or run busy elsewhere, batch full).
  v_left_due boolean;
  v_dropped boolean;
  v_parked boolean;
  v_more boolean;
  v_quick boolean;
BEGIN
  PERFORM set_config('webhook_admin.claim_quick', '', true);
  v_items := webhook_admin_claim_scan_due(v_window, p_kinds);
  -- A quick claim (claim/scan-due.sql) left due rows unscanned: it is followed at once.
  v_quick := current_setting('webhook_admin.claim_quick', true) = 'on';
  IF cardinality(v_items) = 0 THEN
    RETURN;
  END IF;
  -- Endpoints another claim (or an outcome write) holds right now are skipped, not waited for:
  -- their due rows stay due for the next claim, and concurrent claims share out endpoints.
  SELECT coalesce(array_agg(x.id), '{}') INTO v_locked
  FROM (SELECT en.id FROM endpoints en WHERE en.id IN (SELECT i.endpoint_id FROM unnest(v_items) AS i) ORDER BY en.id FOR UPDATE SKIP LOCKED) x;
  -- Except by live traffic's own claims when every endpoint they found is held: an endpoint being
  -- recovered is locked by the recovery's claims most of the time they run, and a live row
  -- skipped there, with nothing else claimed, would wait 100 ms for the wake-up below. So such a
  -- claim waits for those endpoints, p_lock_wait_ms at most (a fifth of a second; the locks are
  -- then taken out of id order, so a wait may close a cycle with another transaction: the timeout
  -- ends it before the deadlock detector's second would). A claim that holds some endpoints goes
  -- on with them (what it skipped makes it claim again at once: `more`), so one consumer's new
  -- message never waits for another's endpoints held by an outcome write; and a claim that
  -- includes recovery items never waits: they are not in a hurry.
  IF p_kinds IS NOT NULL AND NOT webhook_admin_queue_kind('recovery') = ANY (p_kinds) AND cardinality(v_locked) = 0 THEN
    v_busy := ARRAY(SELECT DISTINCT i.endpoint_id FROM unnest(v_items) AS i ORDER BY 1);
    IF cardinality(v_busy) > 0 THEN
      v_lock_timeout := current_setting('lock_timeout');
      BEGIN
        PERFORM set_config('lock_timeout', p_lock_wait_ms || 'ms', true);
        SELECT v_locked || coalesce(array_agg(x.id), '{}') INTO v_locked
        FROM (SELECT en.id FROM endpoints en WHERE en.id = ANY (v_busy) ORDER BY en.id FOR UPDATE) x;
        PERFORM set_config('lock_timeout', v_lock_timeout, true);
      EXCEPTION WHEN lock_not_available THEN
        -- Left due, as if skipped (the block's setting is undone with it).
        NULL;
      END;
    END IF;
  END IF;
  v_runs := webhook_admin_claim_run_budgets(v_items, p_limit, v_run_window);
  v_items := webhook_admin_claim_apply_limits(v_items, v_locked, v_runs, p_limit, p_default_concurrency, v_lease_end, v_run_window);
  SELECT count(*) FILTER (WHERE i.action = 'claim'), coalesce(bool_or(i.action IS NULL), false),
         coalesce(bool_or(i.action = 'drop'), false), coalesce(bool_or(i.action = 'park'), false)
  INTO v_claimed, v_left_due, v_dropped, v_parked
  FROM unnest(v_items) AS i;
  IF cardinality(v_runs) > 0 THEN
    PERFORM webhook_admin_claim_log_run_sends(v_items, v_runs, v_run_window);
  END IF;
  IF v_dropped THEN
    PERFORM webhook_admin_claim_drop_stopped(v_items);
  END IF;
  IF v_claimed = 0 THEN
    -- Nothing taken, yet due work may remain: beyond the scanned window (all of it parked or
    -- dropped, e.g. one endpoint's backlog behind an open circuit) a claim goes on at once; for
    -- endpoints another transaction holds, shortly. Nothing else would come back for it.
    IF cardinality(v_items) >= v_window OR v_quick THEN
      PERFORM webhook_admin_wake_deliveries(ARRAY[NULL::timestamptz]);
    ELSIF v_left_due THEN
      PERFORM webhook_admin_wake_deliveries(ARRAY[clock_timestamp() + interval '100 milliseconds']);
    END IF;
  ELSE
    v_more := v_left_due OR v_claimed = p_limit OR cardinality(v_items) >= v_window OR v_quick;
    -- Due work remains beyond this claim: other worker processes join in. A NOTIFY (each worker's
    -- listener has its pump claim) costs a fraction of adding a graphile job here on every claim.
    -- Its payload names the kinds, so only the lanes serving them claim (lib/jobs wakePayload).
    IF v_more THEN
      PERFORM pg_notify('webhook_admin_due', coalesce(array_to_string(p_kinds, ','), ''));
    END IF;
    IF p_lease_wake_at IS NOT NULL THEN
      PERFORM graphile_worker.add_job('deliver_due', '{}'::json, run_at := p_lease_wake_at,
        job_key := 'deliver_due@lease@' || (extract(epoch FROM p_lease_wake_at) * 1000)::bigint,
        job_key_mode := 'preserve_run_at', max_attempts := 10);
    END IF;
    RETURN QUERY SELECT l.*, v_more FROM webhook_admin_claim_lease(v_items, p_token, v_lease_end) AS l;
  END IF;
  IF v_parked THEN
    PERFORM webhook_admin_claim_park(v_items, p_token);
  END IF;
END $$;
