-- Ends the work waiting for endpoints that stopped (disabled by a person or by the 5-day rule), and
-- returns how many deliveries it canceled. Scheduled deliveries end canceled (a recovery can bring
-- them back); resends and recovery items waiting for them are dropped unsent (the recovery feeder
-- records such an item as skipped). An attempt in flight keeps its row: its outcome decides the
-- delivery, and a retry it schedules is canceled by the next claim.
--
-- Applied after the migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_cancel_pending(p_endpoint_ids text[], p_reason text) RETURNS integer
LANGUAGE sql AS $$
  WITH gone AS (
    DELETE FROM delivery_queue
    WHERE endpoint_id = ANY (p_endpoint_ids) AND (lease_token IS NULL OR next_attempt_at <= now())
    RETURNING delivery_id, kind
  ),
  canceled AS (
    -- By id, through the primary key: a join to `gone` is planned for the array's generic estimate
    -- (thousands of rows), and then read the whole of deliveries (its history, not the backlog).
    UPDATE deliveries d SET status = 'canceled', next_attempt_at = NULL, last_error = p_reason, updated_at = now()
    WHERE d.id = ANY (ARRAY(SELECT delivery_id FROM gone WHERE kind = webhook_admin_queue_kind('scheduled')))
    RETURNING 1
  )
  SELECT count(*)::integer FROM canceled
$$;
