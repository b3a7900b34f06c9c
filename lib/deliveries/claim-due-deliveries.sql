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
-- A recovery run's own rate holds here too, where its attempts leave: at most the run's rate
-- (recoveries.current_rate, the feeder's ramp, rounded up) of its items in any one-second window —
-- a sliding one, from the run's send log (recovery_sends), not a window per second of the clock,
-- which would let a second's budget spent at its end meet the next second's spent at its start.
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
-- start, so a change to it is a reviewable diff. A change of its arguments or result is a new
-- function under the next name (_v3): during a rollout the previous release's workers go on calling
-- theirs, and re-create it when they restart (CREATE OR REPLACE, which cannot change a result
-- type), so the old one is dropped only by a later release (docs/operating.md, Upgrading).
-- _v2 since 0015 (svix_headers); 0.2.0's webhook_admin_claim_deliveries is the one before.
CREATE OR REPLACE FUNCTION webhook_admin_claim_deliveries_v2(
  p_limit integer, p_lease_ms integer, p_default_concurrency integer, p_token text,
  -- The lease's end, rounded, when this process has not yet woken a job for it (null otherwise):
  -- if the worker dies, that job finds its deliveries due again.
  p_lease_wake_at timestamptz
) RETURNS TABLE (
  id text, kind smallint, message_id text, endpoint_id text, consumer_id text, attempts integer, scheduled_attempts integer,
  created_at timestamptz, payload text, is_test boolean, url text, headers jsonb, svix_headers boolean, ciphertexts text[], probe boolean, more boolean
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
  -- The recovery run of each scanned recovery item (null for the other kinds).
  v_recs text[] := '{}';
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
  -- Recovery runs: those among the scanned items, and those whose send state this claim holds,
  -- with what each may still send by its one-second log (v_run_left) and by its bucket
  -- (v_run_tokens), its rate, what this claim takes of it, and when its oldest logged send stops
  -- counting.
  -- A logged send counts for a second and a little more: it reaches the receiver some milliseconds
  -- after the claim, not always by the same few, and the window must hold there too. (Without the
  -- margin, a send released the moment an earlier one stops counting arrived, as often as not, a
  -- few milliseconds less than a second after it.)
  v_run_window interval := interval '1050 milliseconds';
  v_runs text[];
  v_run_ids text[] := '{}';
  v_run_left integer[] := '{}';
  v_run_tokens float8[] := '{}';
  v_run_rate float8[] := '{}';
  v_run_taken integer[] := '{}';
  v_run_oldest timestamptz[] := '{}';
  v_run_clock timestamptz;
  v_run integer;
  v_n integer;
  v_pick integer[];
  v_run_wait integer[];
  v_run_wait_until timestamptz[];
BEGIN
  FOREACH v_kind IN ARRAY ARRAY[webhook_admin_queue_kind('scheduled'), webhook_admin_queue_kind('manual'), webhook_admin_queue_kind('recovery')] LOOP
    EXIT WHEN cardinality(v_ids) >= v_window;
    SELECT coalesce(array_agg(d.delivery_id ORDER BY d.next_attempt_at, d.delivery_id), '{}') AS ids,
           coalesce(array_agg(d.endpoint_id ORDER BY d.next_attempt_at, d.delivery_id), '{}') AS endpoints,
           coalesce(array_agg(d.recovery_id ORDER BY d.next_attempt_at, d.delivery_id), '{}') AS runs
    INTO v_part
    FROM (
      SELECT q.delivery_id, q.endpoint_id, q.next_attempt_at, q.recovery_id FROM delivery_queue q
      WHERE q.kind = v_kind AND q.next_attempt_at <= now()
      ORDER BY q.next_attempt_at
      LIMIT v_window - cardinality(v_ids)
      FOR UPDATE SKIP LOCKED
    ) d;
    IF v_kind = webhook_admin_queue_kind('recovery') AND cardinality(v_part.ids) > 0 THEN
      -- A recovery item whose delivery succeeded meanwhile (a resend, a late scheduled attempt) is
      -- never sent; the feeder records it as skipped.
      WITH gone AS (
        DELETE FROM delivery_queue q USING deliveries d
        WHERE q.kind = webhook_admin_queue_kind('recovery') AND q.delivery_id = ANY (v_part.ids) AND d.id = q.delivery_id AND d.status = 'succeeded'
        RETURNING q.delivery_id
      ) SELECT coalesce(array_agg(gone.delivery_id), '{}') INTO v_done_ids FROM gone;
      IF cardinality(v_done_ids) > 0 THEN
        SELECT coalesce(array_agg(x.i ORDER BY x.n), '{}') AS ids, coalesce(array_agg(x.ep ORDER BY x.n), '{}') AS endpoints,
               coalesce(array_agg(x.r ORDER BY x.n), '{}') AS runs INTO v_part
        FROM unnest(v_part.ids, v_part.endpoints, v_part.runs) WITH ORDINALITY AS x(i, ep, r, n) WHERE x.i <> ALL (v_done_ids);
      END IF;
    END IF;
    v_ids := v_ids || v_part.ids;
    v_endpoints := v_endpoints || v_part.endpoints;
    v_recs := v_recs || v_part.runs;
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

  -- The recovery runs' send state, likewise: a run whose row another claim holds right now sends
  -- nothing in this claim (its items stay due). Locked first, then read, in a statement of its own
  -- (a fresh snapshot: what the other claim committed just before counts). A run may send:
  --   * by its log, its rate (rounded up) less what it sent in the last second (v_run_window), so
  --     no one-second window ever holds more than its rate, however its sends bunch; and
  --   * by its bucket, a quarter second's worth at once at most, refilled at its rate, so a backlog
  --     (a circuit that was open, full slots) drains in small steps through the second instead of
  --     a second's worth at once when a window opens.
  SELECT coalesce(array_agg(DISTINCT r), '{}') INTO v_runs FROM unnest(v_recs) AS r WHERE r IS NOT NULL;
  IF cardinality(v_runs) > 0 THEN
    SELECT coalesce(array_agg(x.recovery_id), '{}') INTO v_run_ids
    FROM (SELECT s.recovery_id FROM recovery_sends s WHERE s.recovery_id = ANY (v_runs) ORDER BY s.recovery_id FOR UPDATE SKIP LOCKED) x;
    v_run_clock := clock_timestamp();
    SELECT coalesce(array_agg(b.id ORDER BY b.id), '{}'),
           coalesce(array_agg(ceil(b.rate)::integer - b.sent ORDER BY b.id), '{}'),
           coalesce(array_agg(least(b.burst, coalesce(b.tokens + b.rate * extract(epoch FROM v_run_clock - b.tokens_at), b.burst)) ORDER BY b.id), '{}'),
           coalesce(array_agg(b.rate ORDER BY b.id), '{}'),
           coalesce(array_agg(b.oldest ORDER BY b.id), '{}')
    INTO v_run_ids, v_run_left, v_run_tokens, v_run_rate, v_run_oldest
    FROM (
      SELECT r.id, r.rate, greatest(1, ceil(r.rate / 4)) AS burst, r.tokens, r.tokens_at, coalesce(l.sent, 0)::integer AS sent, l.oldest
      FROM (
        SELECT s.recovery_id AS id, s.tokens, s.tokens_at, s.sent_at, s.sent_count,
               greatest(1, coalesce(rc.current_rate, (rc.options->>'rate_per_second')::float8)) AS rate
        FROM recovery_sends s JOIN recoveries rc ON rc.id = s.recovery_id
        WHERE s.recovery_id = ANY (v_run_ids)
      ) r
      CROSS JOIN LATERAL (
        SELECT sum(e.cnt) AS sent, min(e.at) AS oldest FROM unnest(r.sent_at, r.sent_count) AS e(at, cnt)
        WHERE e.at > v_run_clock - v_run_window
      ) l
    ) b;
    v_run_taken := array_fill(0, ARRAY[cardinality(v_run_ids)]);
    -- A run without a send row (the feeder writes one before it queues anything) is not held back here.
    IF EXISTS (SELECT 1 FROM unnest(v_runs) AS r WHERE r <> ALL (v_run_ids)
               AND NOT EXISTS (SELECT 1 FROM recovery_sends s WHERE s.recovery_id = r)) THEN
      SELECT v_run_ids || array_agg(r), v_run_left || array_agg(p_limit), v_run_tokens || array_agg(p_limit::float8),
             v_run_rate || array_agg(p_limit::float8), v_run_taken || array_agg(0), v_run_oldest || array_agg(NULL::timestamptz)
      INTO v_run_ids, v_run_left, v_run_tokens, v_run_rate, v_run_taken, v_run_oldest
      FROM unnest(v_runs) AS r WHERE r <> ALL (v_run_ids) AND NOT EXISTS (SELECT 1 FROM recovery_sends s WHERE s.recovery_id = r);
    END IF;
  END IF;

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
    -- In scanned order, within the slots and rate above; a recovery item also within its run's
    -- rate: past it, it waits for its run (v_run_wait), and a run whose log another claim holds
    -- keeps its items due.
    v_pick := '{}';
    v_rest := '{}';
    v_run_wait := '{}';
    v_run_wait_until := '{}';
    FOREACH v_n IN ARRAY e.waiting LOOP
      v_run := NULL;
      IF v_kinds[v_n] = webhook_admin_queue_kind('recovery') AND v_recs[v_n] IS NOT NULL THEN
        v_run := array_position(v_run_ids, v_recs[v_n]);
        IF v_run IS NULL THEN
          v_skipped := true;
          CONTINUE;
        END IF;
        IF v_run_taken[v_run] >= v_run_left[v_run] OR v_run_tokens[v_run] - v_run_taken[v_run] < 1 THEN
          -- Due again when the run may send one more: its oldest logged send stops counting, or its
          -- bucket holds a whole item again (whichever comes later).
          v_run_wait := v_run_wait || v_n;
          v_run_wait_until := v_run_wait_until || greatest(
            CASE WHEN v_run_taken[v_run] >= v_run_left[v_run] THEN coalesce(v_run_oldest[v_run], v_run_clock) + v_run_window END,
            CASE WHEN v_run_tokens[v_run] - v_run_taken[v_run] < 1
                 THEN v_run_clock + (1 - (v_run_tokens[v_run] - v_run_taken[v_run])) / v_run_rate[v_run] * interval '1 second' END);
          CONTINUE;
        END IF;
      END IF;
      IF cardinality(v_pick) < v_allowed THEN
        v_pick := v_pick || v_n;
        IF v_run IS NOT NULL THEN
          v_run_taken[v_run] := v_run_taken[v_run] + 1;
          v_run_oldest[v_run] := coalesce(v_run_oldest[v_run], v_run_clock);
        END IF;
      ELSE
        v_rest := v_rest || v_n;
      END IF;
    END LOOP;
    v_taken := cardinality(v_pick);
    v_claim := v_claim || v_pick;
    IF v_half_open THEN
      v_probes := v_probes || v_pick;
    END IF;
    IF cardinality(v_run_wait) > 0 THEN
      v_park := v_park || v_run_wait;
      v_park_until := v_park_until || v_run_wait_until;
      v_park_for_slot := v_park_for_slot || array_fill(false, ARRAY[cardinality(v_run_wait)]);
    END IF;
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

  -- Each run's sends of this claim join its log (what no longer counts leaves it) and leave its bucket.
  FOR v_run IN 1 .. cardinality(v_run_ids) LOOP
    IF v_run_taken[v_run] > 0 THEN
      UPDATE recovery_sends s
      SET sent_at = array(SELECT e.at FROM unnest(s.sent_at, s.sent_count) WITH ORDINALITY AS e(at, cnt, i)
                          WHERE e.at > v_run_clock - v_run_window ORDER BY e.i) || v_run_clock,
          sent_count = array(SELECT e.cnt FROM unnest(s.sent_at, s.sent_count) WITH ORDINALITY AS e(at, cnt, i)
                             WHERE e.at > v_run_clock - v_run_window ORDER BY e.i) || v_run_taken[v_run],
          tokens = v_run_tokens[v_run] - v_run_taken[v_run], tokens_at = v_run_clock
      WHERE s.recovery_id = v_run_ids[v_run];
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
    FROM gone WHERE deliveries.id = gone.delivery_id AND gone.kind = webhook_admin_queue_kind('scheduled');
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
        SELECT en.id, en.url, en.headers, en.svix_headers, webhook_admin_signing_secrets(en.id) AS ciphertexts
        FROM endpoints en WHERE en.id = ANY (v_locked)
      )
      SELECT d.id, v_kinds[c.n], d.message_id, d.endpoint_id, d.consumer_id, d.attempts, d.scheduled_attempts, d.created_at::timestamptz,
             m.payload, m.is_test,
             (SELECT en.url FROM en WHERE en.id = d.endpoint_id),
             (SELECT en.headers FROM en WHERE en.id = d.endpoint_id),
             (SELECT en.svix_headers FROM en WHERE en.id = d.endpoint_id),
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
