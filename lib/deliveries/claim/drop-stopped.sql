-- The rows the claim dropped: their endpoint stopped. Its scheduled deliveries end canceled (a
-- recovery can bring them back); a resend or a recovery item waiting for it is not sent (the
-- feeder records the item skipped). Applied after the migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_claim_drop_stopped(p_items webhook_admin_claim_item[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  WITH gone AS (
    DELETE FROM delivery_queue q USING unnest(p_items) AS i
    WHERE i.action = 'drop' AND q.delivery_id = i.delivery_id AND q.kind = i.kind
    RETURNING q.delivery_id, q.kind
  )
  UPDATE deliveries SET status = 'canceled', next_attempt_at = NULL, last_error = 'endpoint_not_active', updated_at = now()
  FROM gone WHERE deliveries.id = gone.delivery_id AND gone.kind = webhook_admin_queue_kind('scheduled');
END $$;
