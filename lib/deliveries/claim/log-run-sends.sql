-- Each recovery run's sends of this claim join its log (what no longer counts leaves it) and leave
-- its bucket (webhook_admin_claim_run_budgets reads them). Applied after the migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_claim_log_run_sends(
  p_items webhook_admin_claim_item[], p_runs webhook_admin_claim_run[], p_window interval
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE recovery_sends s
  SET sent_at = array(SELECT e.at FROM unnest(s.sent_at, s.sent_count) WITH ORDINALITY AS e(at, cnt, i)
                      WHERE e.at > t.clock - p_window ORDER BY e.i) || t.clock,
      sent_count = array(SELECT e.cnt FROM unnest(s.sent_at, s.sent_count) WITH ORDINALITY AS e(at, cnt, i)
                         WHERE e.at > t.clock - p_window ORDER BY e.i) || t.taken,
      tokens = t.tokens - t.taken, tokens_at = t.clock
  FROM (
    SELECT r.id, r.tokens, r.clock, c.taken
    FROM unnest(p_runs) AS r
    JOIN (SELECT i.recovery_id, count(*)::integer AS taken FROM unnest(p_items) AS i
          WHERE i.action = 'claim' AND i.kind = webhook_admin_queue_kind('recovery') GROUP BY i.recovery_id) c
      ON c.recovery_id = r.id
  ) t
  WHERE s.recovery_id = t.id;
END $$;
