-- The claim's first stage: due queue rows, at most p_window, shared fairly among the consumers that
-- have due work — scheduled attempts, then manual resends, then recovery items. Locked with SKIP
-- LOCKED, so workers claim side by side. Applied after the migrations by lib/db/functions.ts.
--
-- Why not the oldest due rows first: one consumer's burst (a nightly import over a thousand
-- endpoints) would then make every other consumer's new message wait until it had drained. Instead
-- each kind's share of the window goes round the consumers with due work (docs/delivery.md, "How
-- the engine's work is shared"; ADR 0043):
--   1. A walk over the consumers that have rows of the kind, in id order on
--      delivery_queue_consumer_due_idx (kind, consumer_id, next_attempt_at), starting after where
--      the last claim stopped (claim_rotation) and wrapping round: each step is one index descent
--      that gives the next consumer and its earliest row, so a consumer is due when that row is.
--      It stops at p_want due consumers, at a bound of steps, or when it is back where it started.
--   2. The window shared among the due consumers it found by weight (consumers.weight, 1–100):
--      each takes its share of its oldest due rows (one index range each, FOR UPDATE SKIP LOCKED);
--      what a consumer with less work leaves goes round again to those that have more.
--   3. The rows interleaved — each consumer's first, then its second, a weight of w taking w at a
--      time — so the later stages, which take at most the claim's limit in this order, share too.
-- A quick claim: of live traffic (not recovery items), when several consumers are due, the first
-- pass takes at most a twentieth of the window from each (a weight of w, w twentieths). If that
-- leaves one consumer with rows to spare beside another that had fewer — a consumer's few new
-- messages beside another's backlog — the claim stops there, small: its cost and its time grow with
-- its rows, and the few waited for one claim of the backlog already (the next claim takes the
-- backlog's full share). Beside a backlog draining at 2,800 a second, claims of a hundred rows took
-- 25–36 ms (bench part n, 2026-12-07); the other consumer's message waited for one and then its own.
-- A consumer with one due message is in the next claim whatever others have queued; a weight
-- cannot starve anyone, since every due consumer the walk finds takes at least one row, and the
-- walk goes on from where it stopped. The cost per row stays flat as consumers grow: each due
-- consumer costs a descent to find and one to read, and a claim visits no more than it serves
-- (plus consumers whose rows are all waiting: retries not yet due, parked, leased — bounded).
CREATE OR REPLACE FUNCTION webhook_admin_claim_scan_kind(p_kind smallint, p_want integer, p_mark integer) RETURNS webhook_admin_claim_item[]
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := now();
  -- Steps of the walk at most, each way round: consumers whose rows all wait cost a step and serve nothing.
  v_max_steps integer := greatest(32, p_want);
  v_start text;
  -- The due consumers found, in the walk's order; '' stands for rows no consumer is recorded on
  -- (rows written before migration 0021 filled consumer_id: see lib/db/schema/columns.ts).
  v_consumers text[];
  v_weights integer[];
  v_got integer[];
  v_open boolean[];
  v_shares integer[];
  v_left integer := p_want;
  v_weight_sum integer;
  v_pass integer := 0;
  v_c integer;
  v_n integer;
  v_taken integer[];
  -- What was taken, with each row's consumer's place in the walk and the row's rank there.
  v_items webhook_admin_claim_item[] := '{}';
  v_visit integer[] := '{}';
  v_rank integer[] := '{}';
  v_part webhook_admin_claim_item[];
  v_part_visit integer[];
  v_part_rank integer[];
  v_at text;
  -- The quick claim's cap (a weight of w, w times it), for live kinds; null for recovery items.
  v_quick_cap integer := CASE WHEN p_kind = webhook_admin_queue_kind('recovery') THEN NULL ELSE greatest(1, p_want / 20) END;
  -- In this pass: a consumer took less than its share (it has no more), one took all of it.
  v_short boolean;
  v_full boolean;
BEGIN
  IF p_want <= 0 THEN
    RETURN '{}';
  END IF;
  SELECT r.after_consumer INTO v_start FROM claim_rotation r WHERE r.kind = p_kind;
  -- The walk: from after the rotation's place to the last consumer, then from the first to it. A
  -- recursive query is evaluated as far as its reader reads, so the LIMIT ends the walk (UNION ALL
  -- reads its branches in order); each step is one descent of the index.
  WITH RECURSIVE after_start(consumer_id, first_at, step) AS (
    (SELECT q.consumer_id, q.next_attempt_at, 1 FROM delivery_queue q
     WHERE q.kind = p_kind AND q.consumer_id > coalesce(v_start, '') ORDER BY q.consumer_id, q.next_attempt_at LIMIT 1)
    UNION ALL
    SELECT nx.consumer_id, nx.next_attempt_at, w.step + 1 FROM after_start w
    CROSS JOIN LATERAL (SELECT q.consumer_id, q.next_attempt_at FROM delivery_queue q
                        WHERE q.kind = p_kind AND q.consumer_id > w.consumer_id ORDER BY q.consumer_id, q.next_attempt_at LIMIT 1) nx
    WHERE w.step < v_max_steps
  ), up_to_start(consumer_id, first_at, step) AS (
    (SELECT q.consumer_id, q.next_attempt_at, 1 FROM delivery_queue q
     WHERE q.kind = p_kind AND q.consumer_id > '' AND q.consumer_id <= v_start ORDER BY q.consumer_id, q.next_attempt_at LIMIT 1)
    UNION ALL
    SELECT nx.consumer_id, nx.next_attempt_at, w.step + 1 FROM up_to_start w
    CROSS JOIN LATERAL (SELECT q.consumer_id, q.next_attempt_at FROM delivery_queue q
                        WHERE q.kind = p_kind AND q.consumer_id > w.consumer_id AND q.consumer_id <= v_start
                        ORDER BY q.consumer_id, q.next_attempt_at LIMIT 1) nx
    WHERE w.step < v_max_steps
  ), found AS (
    SELECT d.consumer_id, row_number() OVER () AS n FROM (
      SELECT ''::text AS consumer_id
      WHERE EXISTS (SELECT 1 FROM delivery_queue q WHERE q.kind = p_kind AND q.consumer_id IS NULL AND q.next_attempt_at <= v_now)
      UNION ALL
      (SELECT a.consumer_id FROM after_start a WHERE a.first_at <= v_now
       UNION ALL
       SELECT b.consumer_id FROM up_to_start b WHERE b.first_at <= v_now)
      LIMIT p_want) d
  )
  SELECT array_agg(f.consumer_id ORDER BY f.n), array_agg(coalesce(c.weight, 1) ORDER BY f.n)
  INTO v_consumers, v_weights
  FROM found f LEFT JOIN consumers c ON c.id = f.consumer_id;
  IF v_consumers IS NULL THEN
    RETURN '{}';
  END IF;

  v_got := array_fill(0, ARRAY[cardinality(v_consumers)]);
  v_open := array_fill(true, ARRAY[cardinality(v_consumers)]);
  -- Passes: each open consumer takes its weight's part of what is left (at least one row, in the
  -- walk's order while any is left); one that takes less than that has no more and is closed.
  WHILE v_left > 0 AND v_pass < 8 AND true = ANY (v_open) LOOP
    v_pass := v_pass + 1;
    v_weight_sum := 0;
    FOR v_c IN 1 .. cardinality(v_consumers) LOOP
      IF v_open[v_c] THEN
        v_weight_sum := v_weight_sum + v_weights[v_c];
      END IF;
    END LOOP;
    v_shares := array_fill(0, ARRAY[cardinality(v_consumers)]);
    v_n := v_left;
    FOR v_c IN 1 .. cardinality(v_consumers) LOOP
      CONTINUE WHEN NOT v_open[v_c];
      EXIT WHEN v_n = 0;
      v_shares[v_c] := least(v_n, greatest(1, (v_left * v_weights[v_c]) / v_weight_sum));
      IF v_pass = 1 AND v_quick_cap IS NOT NULL AND cardinality(v_consumers) > 1 THEN
        v_shares[v_c] := least(v_shares[v_c], v_quick_cap * v_weights[v_c]);
      END IF;
      v_n := v_n - v_shares[v_c];
    END LOOP;
    -- Every consumer's share in one statement. OFFSET: the rows this claim locked in an earlier
    -- pass come first again (a lock of one's own is not skipped); rows others locked are skipped first.
    SELECT coalesce(array_agg(ROW(d.delivery_id, p_kind, d.endpoint_id, d.recovery_id, NULL, NULL, NULL, false, NULL)::webhook_admin_claim_item ORDER BY c.n, d.r), '{}'),
           coalesce(array_agg(c.n::integer ORDER BY c.n, d.r), '{}'), coalesce(array_agg((c.got + d.r)::integer ORDER BY c.n, d.r), '{}')
    INTO v_part, v_part_visit, v_part_rank
    FROM unnest(v_consumers, v_shares, v_got) WITH ORDINALITY AS c(consumer_id, share, got, n)
    CROSS JOIN LATERAL (
      SELECT x.delivery_id, x.endpoint_id, x.recovery_id, row_number() OVER () AS r FROM (
        SELECT q.delivery_id, q.endpoint_id, q.recovery_id FROM delivery_queue q
        WHERE q.kind = p_kind AND q.consumer_id = c.consumer_id AND q.next_attempt_at <= v_now
        ORDER BY q.next_attempt_at OFFSET c.got LIMIT c.share FOR UPDATE SKIP LOCKED) x
    ) d
    WHERE c.share > 0 AND c.consumer_id <> '';
    IF v_consumers[1] = '' AND v_shares[1] > 0 THEN
      SELECT v_part || coalesce(array_agg(ROW(x.delivery_id, p_kind, x.endpoint_id, x.recovery_id, NULL, NULL, NULL, false, NULL)::webhook_admin_claim_item), '{}'),
             v_part_visit || coalesce(array_agg(1), '{}'), v_part_rank || coalesce(array_agg((v_got[1] + x.r)::integer), '{}')
      INTO v_part, v_part_visit, v_part_rank
      FROM (SELECT y.*, row_number() OVER () AS r FROM (
              SELECT q.delivery_id, q.endpoint_id, q.recovery_id FROM delivery_queue q
              WHERE q.kind = p_kind AND q.consumer_id IS NULL AND q.next_attempt_at <= v_now
              ORDER BY q.next_attempt_at OFFSET v_got[1] LIMIT v_shares[1] FOR UPDATE SKIP LOCKED) y) x;
    END IF;
    v_taken := array_fill(0, ARRAY[cardinality(v_consumers)]);
    FOREACH v_c IN ARRAY v_part_visit LOOP
      v_taken[v_c] := v_taken[v_c] + 1;
    END LOOP;
    v_short := false;
    v_full := false;
    FOR v_c IN 1 .. cardinality(v_consumers) LOOP
      CONTINUE WHEN v_shares[v_c] = 0;
      IF v_taken[v_c] < v_shares[v_c] THEN
        v_open[v_c] := false;
        v_short := true;
      ELSE
        v_full := true;
      END IF;
      v_got[v_c] := v_got[v_c] + v_taken[v_c];
      v_left := v_left - v_taken[v_c];
    END LOOP;
    v_items := v_items || v_part;
    v_visit := v_visit || v_part_visit;
    v_rank := v_rank || v_part_rank;
    -- The quick claim (above): a consumer with few rows beside one with more. The claim learns of
    -- it from the setting (until the transaction ends): due rows remain that it did not scan.
    IF v_pass = 1 AND v_quick_cap IS NOT NULL AND cardinality(v_consumers) > 1 AND v_short AND v_full THEN
      PERFORM set_config('webhook_admin.claim_quick', 'on', true);
      EXIT;
    END IF;
  END LOOP;

  -- Interleaved: each consumer's first, then its second, a weight of w taking w at a time.
  -- (Walked, not subscripted: a subscript of a composite array walks it from its start.)
  SELECT array_agg(ROW(i.delivery_id, i.kind, i.endpoint_id, i.recovery_id, NULL, NULL, NULL, false, NULL)::webhook_admin_claim_item
                   ORDER BY ceil(t.rank::numeric / v_weights[t.visit]), t.visit, t.rank),
         array_agg(t.visit ORDER BY ceil(t.rank::numeric / v_weights[t.visit]), t.visit, t.rank)
  INTO v_items, v_visit
  FROM unnest(v_items) WITH ORDINALITY AS i(delivery_id, kind, endpoint_id, recovery_id, action, until, for_slot, probe, wait_leased, n)
  JOIN unnest(v_visit, v_rank) WITH ORDINALITY AS t(visit, rank, n) ON t.n = i.n;
  IF v_items IS NULL THEN
    -- Every due row found was locked by another claim.
    RETURN '{}';
  END IF;

  -- The next claim starts after the last consumer this one will serve: the last among the first
  -- p_mark rows, which the later stages take (the rest of the window is for rows that must wait).
  -- Not waited for: a claim running beside this one leaves the rotation where it is.
  IF p_mark > 0 THEN
    SELECT max(v) INTO v_c FROM unnest(v_visit[1:p_mark]) AS v;
    v_at := nullif(v_consumers[v_c], '');
    IF v_at IS DISTINCT FROM v_start AND v_at IS NOT NULL THEN
      UPDATE claim_rotation r SET after_consumer = v_at
      WHERE r.kind = p_kind AND r.kind = (SELECT l.kind FROM claim_rotation l WHERE l.kind = p_kind FOR UPDATE SKIP LOCKED);
    END IF;
  END IF;
  RETURN v_items;
END $$;

-- p_kinds: the kinds this claim serves (null: every kind). A worker claims live traffic (scheduled,
-- manual) and recovery items in claims of their own, side by side (worker/delivery-pump.ts), so a
-- live message never waits for a claim busy with a recovery's rows.
DROP FUNCTION IF EXISTS webhook_admin_claim_scan_due(integer);
CREATE OR REPLACE FUNCTION webhook_admin_claim_scan_due(p_window integer, p_kinds smallint[]) RETURNS webhook_admin_claim_item[]
LANGUAGE plpgsql AS $$
DECLARE
  v_items webhook_admin_claim_item[] := '{}';
  v_part webhook_admin_claim_item[];
  v_kind smallint;
BEGIN
  FOREACH v_kind IN ARRAY ARRAY[webhook_admin_queue_kind('scheduled'), webhook_admin_queue_kind('manual'), webhook_admin_queue_kind('recovery')] LOOP
    EXIT WHEN cardinality(v_items) >= p_window OR current_setting('webhook_admin.claim_quick', true) = 'on';
    CONTINUE WHEN p_kinds IS NOT NULL AND v_kind <> ALL (p_kinds);
    -- The window is twice the claim's limit (claim-due-deliveries.sql): the first half is what it takes.
    v_part := webhook_admin_claim_scan_kind(v_kind, p_window - cardinality(v_items), p_window / 2 - cardinality(v_items));
    IF v_kind = webhook_admin_queue_kind('recovery') AND cardinality(v_part) > 0 THEN
      -- A recovery item whose delivery succeeded meanwhile (a resend, a late scheduled attempt) is
      -- never sent; the feeder records it as skipped.
      WITH gone AS (
        DELETE FROM delivery_queue q USING deliveries d
        WHERE q.kind = v_kind AND q.delivery_id IN (SELECT i.delivery_id FROM unnest(v_part) AS i)
          AND d.id = q.delivery_id AND d.status = 'succeeded'
        RETURNING q.delivery_id
      )
      SELECT coalesce(array_agg(v_part[n] ORDER BY n), '{}') INTO v_part
      FROM generate_subscripts(v_part, 1) AS n
      WHERE (v_part[n]).delivery_id NOT IN (SELECT gone.delivery_id FROM gone);
    END IF;
    v_items := v_items || v_part;
  END LOOP;
  RETURN v_items;
END $$;
