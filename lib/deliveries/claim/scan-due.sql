-- The claim's first stage: due queue rows, at most p_window, in the order they are served —
-- scheduled attempts, then manual resends, then recovery items, each by due time. Locked with
-- SKIP LOCKED, so workers claim side by side. Applied after the migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_claim_scan_due(p_window integer) RETURNS webhook_admin_claim_item[]
LANGUAGE plpgsql AS $$
DECLARE
  v_items webhook_admin_claim_item[] := '{}';
  v_part webhook_admin_claim_item[];
  v_kind smallint;
BEGIN
  FOREACH v_kind IN ARRAY ARRAY[webhook_admin_queue_kind('scheduled'), webhook_admin_queue_kind('manual'), webhook_admin_queue_kind('recovery')] LOOP
    EXIT WHEN cardinality(v_items) >= p_window;
    SELECT coalesce(array_agg(ROW(d.delivery_id, v_kind, d.endpoint_id, d.recovery_id, NULL, NULL, NULL, false, NULL)::webhook_admin_claim_item
                              ORDER BY d.next_attempt_at, d.delivery_id), '{}')
    INTO v_part
    FROM (
      SELECT q.delivery_id, q.endpoint_id, q.next_attempt_at, q.recovery_id FROM delivery_queue q
      WHERE q.kind = v_kind AND q.next_attempt_at <= now()
      ORDER BY q.next_attempt_at
      LIMIT p_window - cardinality(v_items)
      FOR UPDATE SKIP LOCKED
    ) d;
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
