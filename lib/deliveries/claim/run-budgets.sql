-- What each recovery run among the scanned items may still send, with its send state locked for
-- this claim. A run's rate holds here, where its attempts leave: at most the run's rate
-- (recoveries.current_rate, the feeder's ramp, rounded up) of its items in any one-second window —
-- a sliding one, from the run's send log (recovery_sends), not a window per second of the clock,
-- which would let a second's budget spent at its end meet the next second's spent at its start.
-- A run may send:
--   * by its log, its rate (rounded up) less what it sent in the last p_window, so no one-second
--     window ever holds more than its rate, however its sends bunch; and
--   * by its bucket, a quarter second's worth at once at most, refilled at its rate, so a backlog
--     (a circuit that was open, full slots) drains in small steps through the second instead of
--     a second's worth at once when a window opens.
-- A run whose row another claim holds right now is left out (its items stay due); a run without a
-- send row (the feeder writes one before it queues anything) is not held back.
-- Applied after the migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_claim_run_budgets(p_items webhook_admin_claim_item[], p_limit integer, p_window interval)
RETURNS webhook_admin_claim_run[]
LANGUAGE plpgsql AS $$
DECLARE
  v_runs text[];
  v_locked text[];
  v_clock timestamptz;
  v_budgets webhook_admin_claim_run[];
BEGIN
  SELECT coalesce(array_agg(DISTINCT i.recovery_id), '{}') INTO v_runs FROM unnest(p_items) AS i WHERE i.recovery_id IS NOT NULL;
  IF cardinality(v_runs) = 0 THEN
    RETURN '{}';
  END IF;
  -- Locked first, then read in a statement of its own (a fresh snapshot: what another claim
  -- committed just before counts).
  SELECT coalesce(array_agg(x.recovery_id), '{}') INTO v_locked
  FROM (SELECT s.recovery_id FROM recovery_sends s WHERE s.recovery_id = ANY (v_runs) ORDER BY s.recovery_id FOR UPDATE SKIP LOCKED) x;
  v_clock := clock_timestamp();
  SELECT coalesce(array_agg(ROW(b.id, ceil(b.rate)::integer - b.sent,
                                least(b.burst, coalesce(b.tokens + b.rate * extract(epoch FROM v_clock - b.tokens_at), b.burst)),
                                b.rate, b.oldest, v_clock)::webhook_admin_claim_run ORDER BY b.id), '{}')
  INTO v_budgets
  FROM (
    SELECT r.id, r.rate, greatest(1, ceil(r.rate / 4)) AS burst, r.tokens, r.tokens_at, coalesce(l.sent, 0)::integer AS sent, l.oldest
    FROM (
      SELECT s.recovery_id AS id, s.tokens, s.tokens_at, s.sent_at, s.sent_count,
             greatest(1, coalesce(rc.current_rate, (rc.options->>'rate_per_second')::float8)) AS rate
      FROM recovery_sends s JOIN recoveries rc ON rc.id = s.recovery_id
      WHERE s.recovery_id = ANY (v_locked)
    ) r
    CROSS JOIN LATERAL (
      SELECT sum(e.cnt) AS sent, min(e.at) AS oldest FROM unnest(r.sent_at, r.sent_count) AS e(at, cnt)
      WHERE e.at > v_clock - p_window
    ) l
  ) b;
  SELECT v_budgets || coalesce(array_agg(ROW(r, p_limit, p_limit, p_limit, NULL, v_clock)::webhook_admin_claim_run), '{}')
  INTO v_budgets
  FROM unnest(v_runs) AS r
  WHERE r <> ALL (v_locked) AND NOT EXISTS (SELECT 1 FROM recovery_sends s WHERE s.recovery_id = r);
  RETURN v_budgets;
END $$;
