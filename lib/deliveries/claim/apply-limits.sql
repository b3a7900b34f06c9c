-- Decides each scanned row (webhook_admin_claim_item.action) within its endpoint's limits —
-- concurrency cap, rate limit, circuit breaker — and its recovery run's budget, and writes the
-- endpoints' rate windows and half-open circuits. p_locked: the endpoints this claim holds (locked in
-- id order, as outcome writes lock them, so two claims never both take an endpoint's last slot);
-- the rows of any other endpoint are left due. Within an endpoint, rows go in scanned order — live
-- traffic first, a recovery last. The batch limit goes by scanned order across endpoints, which
-- the scan interleaves by consumer: the claims past it are given back (left due, with whatever
-- their endpoints parked), so one consumer's endpoint never takes the batch from another's row
-- scanned after it. Everything else decided is parked or dropped: a row that must wait is moved
-- out of the way, so it never blocks other endpoints' work.
-- The leased counts are read after the endpoint locks are held (each statement of a plpgsql
-- function takes a fresh snapshot), so they include what another claim committed just before.
-- Applied after the migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_claim_apply_limits(
  p_items webhook_admin_claim_item[], p_locked text[], p_runs webhook_admin_claim_run[],
  p_limit integer, p_default_concurrency integer, p_lease_end timestamptz, p_run_window interval
) RETURNS webhook_admin_claim_item[]
LANGUAGE plpgsql AS $$
DECLARE
  v_items webhook_admin_claim_item[] := p_items;
  v_item webhook_admin_claim_item;
  v_runs webhook_admin_claim_run[] := p_runs;
  v_run_ids text[] := ARRAY(SELECT r.id FROM unnest(p_runs) AS r);
  -- What this claim takes of each run, by position in v_runs.
  v_run_taken integer[] := array_fill(0, ARRAY[cardinality(p_runs)]);
  v_r webhook_admin_claim_run;
  v_run integer;
  v_second timestamptz := date_trunc('second', now());
  v_claimed integer := 0;
  e record;
  v_n integer;
  v_allowed integer;
  v_taken integer;
  v_rest integer[];
  v_half_open boolean;
  v_window_start timestamptz;
  v_window_count integer;
  v_rate_spent boolean;
  v_slots_full boolean;
  -- Whether live traffic uses the endpoint now (null: not asked yet), and the slots then kept from
  -- recovery items for it.
  v_live boolean;
  v_reserve integer;
  -- Whether this claim scanned live rows of the endpoint, and whether live rows not in it wait
  -- there for a slot (null: not asked yet).
  v_scanned_live boolean;
  v_live_waiting boolean;
  -- This recovery item leaves its slot to live traffic.
  v_yield boolean;
  v_circuit timestamptz;
  -- Past the rate's budget: the second rows are booked into, and how many it has so far
  -- (endpoints.rate_booked_until is that second plus count/rate of a second).
  v_book_sec timestamptz;
  v_book_n integer;
  -- A row of the endpoint already parked for its circuit's end, to be the probe.
  v_probe_waits boolean;
  -- Each endpoint's writes, held until the batch limit has been applied: its id, what it had, what it gets.
  v_e_ids text[] := '{}';
  v_e_circuit_was timestamptz[] := '{}';
  v_e_circuit timestamptz[] := '{}';
  v_e_start_was timestamptz[] := '{}';
  v_e_start timestamptz[] := '{}';
  v_e_count_was integer[] := '{}';
  v_e_count integer[] := '{}';
  v_e_booked_was timestamptz[] := '{}';
  v_e_booked timestamptz[] := '{}';
  v_e_rated boolean[] := '{}';
  v_e_given_back integer[] := '{}';
  v_back_endpoints text[];
  v_e integer;
BEGIN
  FOR e IN
    WITH w AS (
      -- One pass over the rows (a subscript of a composite array walks it from its start).
      SELECT i.endpoint_id, array_agg(i.n::integer ORDER BY i.n) AS waiting, min(i.n) AS first
      FROM unnest(p_items) WITH ORDINALITY AS i(delivery_id, kind, endpoint_id, recovery_id, action, until, for_slot, probe, wait_leased, n)
      WHERE i.endpoint_id = ANY (p_locked)
      GROUP BY i.endpoint_id
    )
    SELECT en.id, en.consumer_id, en.state, coalesce(en.max_concurrency, p_default_concurrency) AS max_concurrency,
           en.rate_limit_per_second, en.rate_window_start, en.rate_window_count, en.rate_booked_until, en.circuit_open_until, w.waiting,
           l.leased, l.leased_live
    FROM w JOIN endpoints en ON en.id = w.endpoint_id
    CROSS JOIN LATERAL (
      SELECT count(*)::integer AS leased, count(*) FILTER (WHERE l.kind <> webhook_admin_queue_kind('recovery'))::integer AS leased_live
      FROM delivery_queue l
      WHERE l.endpoint_id = en.id AND l.lease_token IS NOT NULL AND l.next_attempt_at > now()
    ) l
    ORDER BY w.first
  LOOP
    IF e.state <> 'active' THEN
      FOREACH v_n IN ARRAY e.waiting LOOP
        v_item := v_items[v_n];
        v_item.action := 'drop';
        v_items[v_n] := v_item;
      END LOOP;
      CONTINUE;
    END IF;
    -- Open circuit (or a probe in flight): nothing goes. The backlog waits parked for a slot — not
    -- re-polled — and the probe's outcome wakes it (a slot freed: lib/endpoints/unpark-freed-slots.ts),
    -- as many rows as the endpoint has slots. One row comes due at the circuit's end, to be the
    -- probe: the first this claim parks, unless an earlier claim already parked one for that time
    -- (every claim naming its own would make a wave of them, one per claim of the circuit's time).
    -- The rest wait for that outcome, with an hour past the circuit's end as the safety net should
    -- none come (the probe's row deleted meanwhile, and no new message since). Rows due together
    -- that cannot go take the claims from every healthy endpoint of the same consumer until they are
    -- parked again: the whole backlog due at the circuit's end — 150 new rows a second in the soak,
    -- 100,000 within minutes — or ten minutes after it (the net before) made healthy endpoints'
    -- p99 seconds instead of milliseconds (bench part k, 2026-12-07).
    IF e.circuit_open_until IS NOT NULL AND e.circuit_open_until > now() THEN
      v_probe_waits := EXISTS (SELECT 1 FROM delivery_queue p
                               WHERE p.endpoint_id = e.id AND p.parked AND p.next_attempt_at = e.circuit_open_until
                                 AND p.kind IN (webhook_admin_queue_kind('scheduled'), webhook_admin_queue_kind('manual'), webhook_admin_queue_kind('recovery')));
      FOREACH v_n IN ARRAY e.waiting LOOP
        v_item := v_items[v_n];
        v_item.action := 'park';
        v_item.until := CASE WHEN v_n = e.waiting[1] AND NOT v_probe_waits THEN e.circuit_open_until
                             ELSE e.circuit_open_until + interval '1 hour' END;
        v_item.for_slot := true;
        v_items[v_n] := v_item;
      END LOOP;
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
    -- In scanned order, within the slots and rate above; a recovery item also within its run's
    -- budget: past it, it waits for its run, and a run another claim holds keeps its items due.
    v_taken := 0;
    v_rest := '{}';
    v_live := CASE WHEN e.leased_live > 0 THEN true END;
    v_reserve := CASE WHEN e.max_concurrency > 1 THEN greatest(1, (e.max_concurrency - e.leased_live) / 2) ELSE 0 END + e.leased_live;
    v_scanned_live := false;
    v_live_waiting := NULL;
    FOREACH v_n IN ARRAY e.waiting LOOP
      v_item := v_items[v_n];
      v_run := NULL;
      IF v_item.kind <> webhook_admin_queue_kind('recovery') THEN
        v_live := true;
        v_scanned_live := true;
      END IF;
      IF v_item.kind = webhook_admin_queue_kind('recovery') AND v_item.recovery_id IS NOT NULL THEN
        v_run := array_position(v_run_ids, v_item.recovery_id);
        CONTINUE WHEN v_run IS NULL;
        v_r := v_runs[v_run];
        IF v_run_taken[v_run] >= v_r.sendable OR v_r.tokens - v_run_taken[v_run] < 1 THEN
          -- Due again when the run may send one more: its oldest logged send stops counting, or its
          -- bucket holds a whole item again (whichever comes later).
          v_item.action := 'park';
          v_item.for_slot := false;
          v_item.until := greatest(
            CASE WHEN v_run_taken[v_run] >= v_r.sendable THEN coalesce(v_r.oldest, v_r.clock) + p_run_window END,
            CASE WHEN v_r.tokens - v_run_taken[v_run] < 1
                 THEN v_r.clock + (1 - (v_r.tokens - v_run_taken[v_run])) / v_r.rate * interval '1 second' END);
          v_items[v_n] := v_item;
          CONTINUE;
        END IF;
      END IF;
      -- Live rows first, also across claims: live traffic and recovery items are claimed apart
      -- (claim-due-deliveries.sql, p_kinds), so a recovery's claim that scanned no live row of the
      -- endpoint asks whether one waits there for a slot — parked, or due and not yet claimed —
      -- and if so leaves the slots to it. The due ones are looked for among the consumer's 64
      -- oldest due live rows: one with a larger due backlog elsewhere may be missed, and then has
      -- the slot only after this claim's items.
      v_yield := false;
      IF v_item.kind = webhook_admin_queue_kind('recovery') AND v_taken < v_allowed AND NOT v_scanned_live THEN
        IF v_live_waiting IS NULL THEN
          v_live_waiting := EXISTS (SELECT 1 FROM delivery_queue p
                                    WHERE p.endpoint_id = e.id AND p.parked
                                      AND p.kind IN (webhook_admin_queue_kind('scheduled'), webhook_admin_queue_kind('manual')))
                         OR EXISTS (SELECT 1 FROM (SELECT p.endpoint_id FROM delivery_queue p
                                                   WHERE p.kind IN (webhook_admin_queue_kind('scheduled'), webhook_admin_queue_kind('manual'))
                                                     AND p.consumer_id = e.consumer_id AND p.next_attempt_at <= now() AND p.lease_token IS NULL
                                                   LIMIT 64) d
                                    WHERE d.endpoint_id = e.id);
        END IF;
        v_yield := v_live_waiting;
      END IF;
      -- Live traffic's reserve: while live traffic uses the endpoint, a recovery takes at most half
      -- of the slots live attempts in flight leave (none with a cap of 1), so live messages
      -- arriving at an endpoint being recovered find slots instead of waiting parked behind the
      -- run's attempts. (A tenth, as before 2026-12-07, was too few: live attempts hold their slot
      -- until their outcome is written, and at 40 a second three or four were out at once, the
      -- next parked until a recovery attempt ended — p99 through the endpoint 0.4–1 s in bench
      -- part e.) Without live traffic a run uses every slot (a small run goes in one claim).
      -- Asked only when the reserve would be touched: live rows scanned or in flight here, waiting
      -- for a slot, or a live attempt logged in the last two seconds (its newest attempts only).
      IF NOT v_yield AND v_item.kind = webhook_admin_queue_kind('recovery') AND v_taken < v_allowed
         AND e.leased + v_taken >= e.max_concurrency - v_reserve THEN
        IF v_live IS NULL THEN
          v_live := coalesce(v_live_waiting, false)
                 OR EXISTS (SELECT 1 FROM (SELECT a.trigger FROM attempts a
                                           WHERE a.endpoint_id = e.id AND a.created_at > now() - interval '2 seconds'
                                           ORDER BY a.created_at DESC LIMIT 64) a
                            WHERE a.trigger <> 'recovery');
        END IF;
        v_yield := v_live;
      END IF;
      -- Yielded to live traffic: parked for a slot, woken by the endpoint's next outcome after the
      -- live rows waiting there.
      IF v_yield THEN
        v_item.action := 'park';
        v_item.until := p_lease_end;
        v_item.for_slot := true;
        v_item.wait_leased := nullif(e.leased, 0);
        v_items[v_n] := v_item;
        CONTINUE;
      END IF;
      IF v_taken < v_allowed THEN
        v_item.action := 'claim';
        v_item.probe := v_half_open;
        v_items[v_n] := v_item;
        v_taken := v_taken + 1;
        IF v_run IS NOT NULL THEN
          v_run_taken[v_run] := v_run_taken[v_run] + 1;
          IF v_r.oldest IS NULL THEN
            v_r.oldest := v_r.clock;
            v_runs[v_run] := v_r;
          END IF;
        END IF;
      ELSE
        v_rest := v_rest || v_n;
      END IF;
    END LOOP;
    v_claimed := v_claimed + v_taken;
    IF e.rate_limit_per_second IS NOT NULL THEN
      v_window_count := v_window_count + v_taken;
    END IF;
    v_rate_spent := e.rate_limit_per_second IS NOT NULL AND v_window_count >= e.rate_limit_per_second;
    v_slots_full := e.leased + v_taken >= e.max_concurrency OR v_half_open;
    -- What is left beyond the slots or the rate waits parked.
    IF e.rate_limit_per_second IS NOT NULL THEN
      v_book_sec := date_trunc('second', greatest(e.rate_booked_until, v_window_start + interval '1 second'));
      v_book_n := CASE WHEN e.rate_booked_until > v_book_sec
                       THEN round(extract(epoch FROM e.rate_booked_until - v_book_sec) * e.rate_limit_per_second)::integer ELSE 0 END;
    END IF;
    IF v_rate_spent OR v_slots_full THEN
      FOREACH v_n IN ARRAY v_rest LOOP
        v_item := v_items[v_n];
        v_item.action := 'park';
        IF v_rate_spent AND NOT v_slots_full THEN
          -- This second's rate budget is spent: due again in the first later second with room,
          -- `rate` rows booked into each, after what earlier claims booked. Were every such row
          -- due at the next second, a backlog behind a rate limit of 10 a second would all be
          -- scanned and parked again every second — 100,000 updates a second for a backlog of
          -- 100,000 — and its consumer's other endpoints would wait behind that. Booked, each row
          -- is parked once, and one wake-up a second serves them.
          IF v_book_n >= e.rate_limit_per_second THEN
            v_book_sec := v_book_sec + interval '1 second';
            v_book_n := 0;
          END IF;
          v_item.until := v_book_sec;
          v_book_n := v_book_n + 1;
          v_item.for_slot := false;
        ELSE
          -- Waiting for a free slot (or the probe's outcome): woken by the endpoint's next outcome;
          -- the lease's end is the safety net should no outcome come (but see the park stage).
          v_item.until := p_lease_end;
          v_item.for_slot := true;
          v_item.wait_leased := nullif(e.leased, 0);
        END IF;
        v_items[v_n] := v_item;
      END LOOP;
    END IF;
    -- A half-open circuit is held open for the probe's lease, so no other worker probes too.
    v_circuit := CASE WHEN v_half_open AND v_taken > 0 THEN p_lease_end ELSE e.circuit_open_until END;
    v_e_ids := v_e_ids || e.id;
    v_e_circuit_was := v_e_circuit_was || e.circuit_open_until;
    v_e_circuit := v_e_circuit || v_circuit;
    v_e_start_was := v_e_start_was || e.rate_window_start;
    v_e_start := v_e_start || v_window_start;
    v_e_count_was := v_e_count_was || e.rate_window_count;
    v_e_count := v_e_count || v_window_count;
    v_e_rated := v_e_rated || (e.rate_limit_per_second IS NOT NULL);
    v_e_booked_was := v_e_booked_was || e.rate_booked_until;
    v_e_booked := v_e_booked || CASE WHEN v_rate_spent AND NOT v_slots_full AND cardinality(v_rest) > 0
                                     THEN v_book_sec + v_book_n * (interval '1 second' / e.rate_limit_per_second)
                                     ELSE e.rate_booked_until END;
  END LOOP;

  -- The batch limit: the claims past it in scanned order are given back, left due, and so is
  -- what their endpoints parked here (it was parked for slots or a rate these claims no longer use).
  IF v_claimed > p_limit THEN
    -- In one statement (a subscript of a composite array walks it from its start): the claims
    -- numbered in scanned order, those past the limit and their endpoints' parked rows left due.
    WITH numbered AS (
      SELECT i.*, count(*) FILTER (WHERE i.action = 'claim') OVER (ORDER BY i.n) AS claim_no
      FROM unnest(v_items) WITH ORDINALITY AS i(delivery_id, kind, endpoint_id, recovery_id, action, until, for_slot, probe, wait_leased, n)
    ), marked AS (
      SELECT m.*, m.action = 'claim' AND m.claim_no > p_limit AS back,
             bool_or(m.action = 'claim' AND m.claim_no > p_limit) OVER (PARTITION BY m.endpoint_id) AS endpoint_back
      FROM numbered m
    )
    SELECT array_agg(CASE WHEN k.back OR (k.endpoint_back AND k.action = 'park')
                          THEN ROW(k.delivery_id, k.kind, k.endpoint_id, k.recovery_id, NULL, NULL, NULL, false, NULL)::webhook_admin_claim_item
                          ELSE ROW(k.delivery_id, k.kind, k.endpoint_id, k.recovery_id, k.action, k.until, k.for_slot, k.probe, k.wait_leased)::webhook_admin_claim_item
                     END ORDER BY k.n),
           coalesce(array_agg(k.endpoint_id) FILTER (WHERE k.back), '{}')
    INTO v_items, v_back_endpoints
    FROM marked k;
    SELECT array_agg(coalesce(b.given, 0) ORDER BY ep.ord) INTO v_e_given_back
    FROM unnest(v_e_ids) WITH ORDINALITY AS ep(id, ord)
    LEFT JOIN (SELECT x.id, count(*)::integer AS given FROM unnest(v_back_endpoints) AS x(id) GROUP BY x.id) b ON b.id = ep.id;
  END IF;

  FOR v_e IN 1 .. cardinality(v_e_ids) LOOP
    IF v_e_given_back[v_e] IS NOT NULL AND v_e_given_back[v_e] > 0 THEN
      IF v_e_rated[v_e] THEN
        v_e_count[v_e] := v_e_count[v_e] - v_e_given_back[v_e];
        -- What it parked past the rate is left due too: nothing of it stays booked.
        v_e_booked[v_e] := v_e_booked_was[v_e];
      END IF;
      -- A half-open circuit's probe given back: nobody probes yet.
      IF v_e_circuit[v_e] IS DISTINCT FROM v_e_circuit_was[v_e] THEN
        v_e_circuit[v_e] := v_e_circuit_was[v_e];
      END IF;
    END IF;
    IF v_e_circuit[v_e] IS DISTINCT FROM v_e_circuit_was[v_e] OR v_e_start[v_e] IS DISTINCT FROM v_e_start_was[v_e]
       OR v_e_count[v_e] <> v_e_count_was[v_e] OR v_e_booked[v_e] IS DISTINCT FROM v_e_booked_was[v_e] THEN
      UPDATE endpoints SET circuit_open_until = v_e_circuit[v_e], rate_window_start = v_e_start[v_e], rate_window_count = v_e_count[v_e],
                           rate_booked_until = v_e_booked[v_e]
      WHERE endpoints.id = v_e_ids[v_e];
    END IF;
  END LOOP;
  RETURN v_items;
END $$;
