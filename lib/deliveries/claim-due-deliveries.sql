-- The claim, in one call (one round trip instead of six: a busy worker's event loop adds its lag to
-- every round trip, and claims are taken one at a time per process). Leases due queue rows, at most
-- p_limit, within every endpoint's limits — concurrency cap, rate limit, circuit breaker — counted
-- here so they hold across all worker processes. Everything scanned is claimed, parked or dropped:
-- a row that must wait is moved out of the way, so it never blocks other endpoints' work.
--
-- Three kinds of work share the queue and these limits: scheduled attempts (kind 0), manual resends
-- (1) and recovery items (2). They are scanned, and an endpoint's free slots and rate budget are
-- handed out, in that order: live traffic first, a recovery last.
--
-- The lease is the queue row's next_attempt_at pushed to the lease's end, with p_token: if the
-- worker dies, the row comes due again then, and a late outcome from the old holder no longer
-- matches the token. Due rows are scanned with SKIP LOCKED so workers claim side by side; endpoint
-- rows are locked (in id order, as outcome writes lock them) so two claims never both take an
-- endpoint's last slot.
-- Each statement of a plpgsql function takes a fresh snapshot: the leased counts below are read
-- after the endpoint locks are held, so they include what another claim committed just before.
--
-- Returned rows carry `kind`, `more` (due work remains beyond this claim: the caller claims again;
-- the other workers have been notified too) and `probe` (the half-open circuit's single trial).
--
-- This file is the function's source: lib/db/functions.ts applies it after the migrations, on every
-- start, so a change to it is a reviewable diff. A change of its arguments or result needs a
-- migration that drops the old one.
CREATE OR REPLACE FUNCTION webhook_admin_claim_deliveries(
  p_limit integer, p_lease_ms integer, p_default_concurrency integer, p_token text,
  -- The lease's end, rounded, when this process has not yet woken a job for it (null otherwise):
  -- if the worker dies, that job finds its deliveries due again.
  p_lease_wake_at timestamptz
) RETURNS TABLE (
  id text, kind smallint, message_id text, endpoint_id text, consumer_id text, attempts integer, scheduled_attempts integer,
  created_at timestamptz, payload text, is_test boolean, url text, headers jsonb, ciphertexts text[], probe boolean, more boolean
)
-- Bitmap scans never mark index entries of dead rows, so the leased counts would visit every lease
-- ever taken until vacuum; plain index scans skip them after the first visit.
LANGUAGE plpgsql SET enable_bitmapscan TO off AS $$
#variable_conflict use_column
DECLARE
  v_lease_end timestamptz := now() + p_lease_ms * interval '1 millisecond';
  v_second timestamptz := date_trunc('second', now());
  v_window integer := p_limit * 2;
  -- The scanned rows, in the order they are served: v_ids[n], v_kinds[n], v_endpoints[n].
  v_ids text[] := '{}';
  v_kinds smallint[] := '{}';
  v_endpoints text[] := '{}';
  v_kind smallint;
  v_part record;
  v_done_ids text[];
  v_locked text[];
  -- Due work seen here but left to another claim (endpoint busy elsewhere, batch full).
  v_skipped boolean;
  -- Positions into the scanned rows.
  v_claim integer[] := '{}';
  v_probes integer[] := '{}';
  v_park integer[] := '{}';
  v_park_until timestamptz[] := '{}';
  v_park_for_slot boolean[] := '{}';
  v_drop integer[] := '{}';
  e record;
  v_allowed integer;
  v_taken integer;
  v_rest integer[];
  v_half_open boolean;
  v_window_start timestamptz;
  v_window_count integer;
  v_rate_spent boolean;
  v_slots_full boolean;
  v_circuit timestamptz;
  v_more boolean;
  -- Endpoints whose due work was parked for a slot while other leases held them, with that count.
  v_slot_waits text[] := '{}';
  v_slot_leased integer[] := '{}';
  v_released text[] := '{}';
  v_releasing boolean;
  v_soon timestamptz;
BEGIN
  FOREACH v_kind IN ARRAY ARRAY[0, 1, 2]::smallint[] LOOP
    EXIT WHEN cardinality(v_ids) >= v_window;
    SELECT coalesce(array_agg(d.delivery_id ORDER BY d.next_attempt_at, d.delivery_id), '{}') AS ids,
           coalesce(array_agg(d.endpoint_id ORDER BY d.next_attempt_at, d.delivery_id), '{}') AS endpoints
    INTO v_part
    FROM (
      SELECT q.delivery_id, q.endpoint_id, q.next_attempt_at FROM delivery_queue q
      WHERE q.kind = v_kind AND q.next_attempt_at <= now()
      ORDER BY q.next_attempt_at
      LIMIT v_window - cardinality(v_ids)
      FOR UPDATE SKIP LOCKED
    ) d;
    IF v_kind = 2 AND cardinality(v_part.ids) > 0 THEN
      -- A recovery item whose delivery succeeded meanwhile (a resend, a late scheduled attempt) is
      -- never sent; the feeder records it as skipped.
      WITH gone AS (
        DELETE FROM delivery_queue q USING deliveries d
        WHERE q.kind = 2 AND q.delivery_id = ANY (v_part.ids) AND d.id = q.delivery_id AND d.status = 'succeeded'
        RETURNING q.delivery_id
      ) SELECT coalesce(array_agg(gone.delivery_id), '{}') INTO v_done_ids FROM gone;
      IF cardinality(v_done_ids) > 0 THEN
        SELECT coalesce(array_agg(x.i ORDER BY x.n), '{}') AS ids, coalesce(array_agg(x.ep ORDER BY x.n), '{}') AS endpoints INTO v_part
        FROM unnest(v_part.ids, v_part.endpoints) WITH ORDINALITY AS x(i, ep, n) WHERE x.i <> ALL (v_done_ids);
      END IF;
    END IF;
    v_ids := v_ids || v_part.ids;
    v_endpoints := v_endpoints || v_part.endpoints;
    v_kinds := v_kinds || array_fill(v_kind, ARRAY[cardinality(v_part.ids)]);
  END LOOP;
  IF cardinality(v_ids) = 0 THEN
    RETURN;
  END IF;

  -- Endpoints another claim (or an outcome write) holds right now are skipped, not waited for:
  -- their due rows stay due for the next claim, and concurrent claims share out endpoints.
  SELECT coalesce(array_agg(x.id), '{}') INTO v_locked
  FROM (SELECT en.id FROM endpoints en WHERE en.id = ANY (v_endpoints) ORDER BY en.id FOR UPDATE SKIP LOCKED) x;
  v_skipped := EXISTS (SELECT 1 FROM unnest(v_endpoints) AS ep WHERE ep <> ALL (v_locked));

  -- Endpoints in the order of their first scanned row, so the batch limit is shared fairly.
  FOR e IN
    WITH c AS (SELECT * FROM unnest(v_endpoints) WITH ORDINALITY AS c(endpoint_id, n)),
    w AS (
      SELECT c.endpoint_id, array_agg(c.n::integer ORDER BY c.n) AS waiting, min(c.n) AS first
      FROM c WHERE c.endpoint_id = ANY (v_locked) GROUP BY c.endpoint_id
    )
    SELECT en.id, en.state, coalesce(en.max_concurrency, p_default_concurrency) AS max_concurrency,
           en.rate_limit_per_second, en.rate_window_start, en.rate_window_count, en.circuit_open_until, w.waiting,
           (SELECT count(*) FROM delivery_queue l
            WHERE l.endpoint_id = en.id AND l.lease_token IS NOT NULL AND l.next_attempt_at > now())::integer AS leased
    FROM w JOIN endpoints en ON en.id = w.endpoint_id
    ORDER BY w.first
  LOOP
    IF e.state <> 'active' THEN
      v_drop := v_drop || e.waiting;
      CONTINUE;
    END IF;
    -- Open circuit (or a probe in flight): nothing goes. The backlog waits parked — not re-polled —
    -- and the probe's outcome wakes it; the circuit's end is only the safety net.
    IF e.circuit_open_until IS NOT NULL AND e.circuit_open_until > now() THEN
      v_park := v_park || e.waiting;
      v_park_until := v_park_until || array_fill(e.circuit_open_until, ARRAY[cardinality(e.waiting)]);
      v_park_for_slot := v_park_for_slot || array_fill(true, ARRAY[cardinality(e.waiting)]);
      CONTINUE;
    END IF;
    v_half_open := e.circuit_open_until IS NOT NULL;
    v_allowed := greatest(0, e.max_concurrency - e.leased);
    IF v_half_open THEN
      v_allowed := least(v_allowed, CASE WHEN e.leased = 0 THEN 1 ELSE 0 END);
    END IF;
    v_window_start := e.rate_window_start;
    v_window_count := e.rate_window_count;
    IF e.rate_limit_per_second IS NOT NULL THEN
      -- Only a later second opens a new window. A claim whose transaction began in an earlier
      -- second than a claim that already spent the current window (it waited for the endpoint's
      -- lock) counts against that window: reopening its own would hand out a second budget.
      IF v_window_start IS NULL OR v_window_start < v_second THEN
        v_window_start := v_second;
        v_window_count := 0;
      END IF;
      v_allowed := least(v_allowed, greatest(0, e.rate_limit_per_second - v_window_count));
    END IF;
    v_allowed := least(v_allowed, p_limit - cardinality(v_claim));
    v_taken := least(v_allowed, cardinality(e.waiting));
    v_claim := v_claim || e.waiting[1:v_taken];
    IF v_half_open THEN
      v_probes := v_probes || e.waiting[1:v_taken];
    END IF;
    v_rest := e.waiting[v_taken + 1:];
    IF e.rate_limit_per_second IS NOT NULL THEN
      v_window_count := v_window_count + v_taken;
    END IF;
    v_rate_spent := e.rate_limit_per_second IS NOT NULL AND v_window_count >= e.rate_limit_per_second;
    v_slots_full := e.leased + v_taken >= e.max_concurrency OR v_half_open;
    IF cardinality(v_rest) > 0 THEN
      IF v_rate_spent AND NOT v_slots_full THEN
        -- This second's rate budget is spent: due again at the next second.
        v_park := v_park || v_rest;
        v_park_until := v_park_until || array_fill(v_window_start + interval '1 second', ARRAY[cardinality(v_rest)]);
        v_park_for_slot := v_park_for_slot || array_fill(false, ARRAY[cardinality(v_rest)]);
      ELSIF v_slots_full OR v_rate_spent THEN
        -- Waiting for a free slot (or the probe's outcome): woken by the endpoint's next outcome;
        -- the lease's end is the safety net should no outcome come (but see the parks, at the end).
        v_park := v_park || v_rest;
        v_park_until := v_park_until || array_fill(v_lease_end, ARRAY[cardinality(v_rest)]);
        v_park_for_slot := v_park_for_slot || array_fill(true, ARRAY[cardinality(v_rest)]);
        IF e.leased > 0 THEN
          v_slot_waits := v_slot_waits || e.id::text;
          v_slot_leased := v_slot_leased || e.leased;
        END IF;
      ELSE
        -- Beyond the batch limit: stays due for the next claim.
        v_skipped := true;
      END IF;
    END IF;
    -- A half-open circuit is held open for the probe's lease, so no other worker probes too.
    v_circuit := CASE WHEN v_half_open AND v_taken > 0 THEN v_lease_end ELSE e.circuit_open_until END;
    IF v_circuit IS DISTINCT FROM e.circuit_open_until OR v_window_start IS DISTINCT FROM e.rate_window_start
       OR v_window_count <> e.rate_window_count THEN
      UPDATE endpoints SET circuit_open_until = v_circuit, rate_window_start = v_window_start, rate_window_count = v_window_count
      WHERE endpoints.id = e.id;
    END IF;
  END LOOP;

  IF cardinality(v_drop) > 0 THEN
    -- The endpoint stopped: its scheduled deliveries end canceled (a recovery can bring them back);
    -- a resend or a recovery item waiting for it is not sent (the feeder records the item skipped).
    WITH gone AS (
      DELETE FROM delivery_queue q USING unnest(v_drop) AS v(n)
      WHERE q.delivery_id = v_ids[v.n] AND q.kind = v_kinds[v.n]
      RETURNING q.delivery_id, q.kind
    )
    UPDATE deliveries SET status = 'canceled', next_attempt_at = NULL, last_error = 'endpoint_not_active', updated_at = now()
    FROM gone WHERE deliveries.id = gone.delivery_id AND gone.kind = 0;
  END IF;
  IF cardinality(v_claim) = 0 THEN
    -- Nothing taken, yet due work may remain: beyond the scanned window (all of it parked or
    -- dropped, e.g. one endpoint's backlog behind an open circuit) a claim goes on at once; for
    -- endpoints another transaction holds, shortly. Nothing else would come back for it.
    IF cardinality(v_ids) >= v_window THEN
      PERFORM webhook_admin_wake_deliveries(ARRAY[NULL::timestamptz]);
    ELSIF v_skipped THEN
      PERFORM webhook_admin_wake_deliveries(ARRAY[clock_timestamp() + interval '100 milliseconds']);
    END IF;
  ELSE
    v_more := v_skipped OR cardinality(v_claim) = p_limit OR cardinality(v_ids) >= v_window;
    -- Due work remains beyond this claim: other worker processes join in. A NOTIFY (each worker's
    -- listener has its pump claim) costs a fraction of adding a graphile job here on every claim.
    IF v_more THEN
      PERFORM pg_notify('webhook_admin_due', '');
    END IF;
    IF p_lease_wake_at IS NOT NULL THEN
      PERFORM graphile_worker.add_job('deliver_due', '{}'::json, run_at := p_lease_wake_at,
        job_key := 'deliver_due@lease@' || (extract(epoch FROM p_lease_wake_at) * 1000)::bigint,
        job_key_mode := 'preserve_run_at', max_attempts := 10);
    END IF;
    UPDATE delivery_queue q SET next_attempt_at = v_lease_end, lease_token = p_token, parked = false
    FROM unnest(v_claim) AS v(n)
    WHERE q.delivery_id = v_ids[v.n] AND q.kind = v_kinds[v.n];
    -- Driven by the claimed rows, with the endpoints' fields as subqueries: joined to endpoints, the
    -- planner may start from the few endpoints and walk each one's whole delivery history.
    RETURN QUERY
      WITH en AS MATERIALIZED (
        -- Secrets read once per endpoint, not once per delivery.
        SELECT en.id, en.url, en.headers, webhook_admin_signing_secrets(en.id) AS ciphertexts
        FROM endpoints en WHERE en.id = ANY (v_locked)
      )
      SELECT d.id, v_kinds[c.n], d.message_id, d.endpoint_id, d.consumer_id, d.attempts, d.scheduled_attempts, d.created_at::timestamptz,
             m.payload, m.is_test,
             (SELECT en.url FROM en WHERE en.id = d.endpoint_id),
             (SELECT en.headers FROM en WHERE en.id = d.endpoint_id),
             (SELECT en.ciphertexts FROM en WHERE en.id = d.endpoint_id),
             c.n = ANY (v_probes), v_more
      FROM unnest(v_claim) AS c(n)
      JOIN deliveries d ON d.id = v_ids[c.n]
      JOIN messages m ON m.id = d.message_id;
  END IF;

  -- The parks last, as close to the commit as statements get: a lease whose outcome another
  -- transaction is writing (its row is locked or already gone) cannot wake what this claim parks
  -- for its slot, since that outcome's snapshot does not see these parks. Such waits get a brief
  -- safety net instead of the lease's end. They are parked all the same, so the endpoint's next
  -- outcome still hands them its slot in kind order: due work left unparked would lose it to
  -- recovery items parked earlier.
  FOR i IN 1 .. cardinality(v_slot_waits) LOOP
    SELECT count(*) < v_slot_leased[i] INTO v_releasing FROM (
      SELECT 1 FROM delivery_queue l
      WHERE l.endpoint_id = v_slot_waits[i] AND l.lease_token IS NOT NULL AND l.lease_token <> p_token
        AND l.next_attempt_at > now()
      FOR KEY SHARE SKIP LOCKED
    ) x;
    IF v_releasing THEN
      v_released := v_released || v_slot_waits[i];
    END IF;
  END LOOP;
  IF cardinality(v_released) > 0 THEN
    v_soon := clock_timestamp() + interval '100 milliseconds';
    SELECT array_agg(CASE WHEN v_park_for_slot[k] AND v_endpoints[v_park[k]] = ANY (v_released) THEN v_soon ELSE v_park_until[k] END ORDER BY k)
    INTO v_park_until FROM generate_subscripts(v_park, 1) AS k;
  END IF;
  IF cardinality(v_park) > 0 THEN
    -- A row due again because its lease ran out (its worker died, its outcome was lost) keeps no
    -- token: parked with it, it would count as a lease in flight and hold a slot until its time.
    UPDATE delivery_queue q SET parked = q.parked OR v.for_slot, next_attempt_at = v.until, lease_token = NULL
    FROM unnest(v_park, v_park_until, v_park_for_slot) AS v(n, until, for_slot)
    WHERE q.delivery_id = v_ids[v.n] AND q.kind = v_kinds[v.n];
    -- Parked rows come due again at their time; something must be there to claim them then.
    PERFORM webhook_admin_wake_deliveries(v_park_until);
  END IF;
END $$;
