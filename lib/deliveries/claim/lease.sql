-- Leases the claimed rows and returns what their attempts need. The lease is the queue row's
-- next_attempt_at pushed to the lease's end, with p_token: if the worker dies, the row comes due
-- again then, and a late outcome from the old holder no longer matches the token.
-- Applied after the migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_claim_lease(p_items webhook_admin_claim_item[], p_token text, p_lease_end timestamptz)
RETURNS TABLE (
  id text, kind smallint, message_id text, endpoint_id text, consumer_id text, attempts integer, scheduled_attempts integer,
  created_at timestamptz, payload text, is_test boolean, url text, headers jsonb, svix_headers boolean, ciphertexts text[], probe boolean
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  UPDATE delivery_queue q SET next_attempt_at = p_lease_end, lease_token = p_token, parked = false
  FROM unnest(p_items) AS i
  WHERE i.action = 'claim' AND q.delivery_id = i.delivery_id AND q.kind = i.kind;
  -- Driven by the claimed rows, with the endpoints' fields as subqueries: joined to endpoints, the
  -- planner may start from the few endpoints and walk each one's whole delivery history.
  RETURN QUERY
    WITH c AS MATERIALIZED (
      SELECT i.delivery_id, i.kind, i.endpoint_id, i.probe FROM unnest(p_items) AS i WHERE i.action = 'claim'
    ),
    en AS MATERIALIZED (
      -- Secrets read once per endpoint, not once per delivery.
      SELECT en.id, en.url, en.headers, en.svix_headers, webhook_admin_signing_secrets(en.id) AS ciphertexts
      FROM endpoints en WHERE en.id IN (SELECT c.endpoint_id FROM c)
    )
    SELECT d.id, c.kind, d.message_id, d.endpoint_id, d.consumer_id, d.attempts, d.scheduled_attempts, d.created_at::timestamptz,
           m.payload, m.is_test,
           (SELECT en.url FROM en WHERE en.id = d.endpoint_id),
           (SELECT en.headers FROM en WHERE en.id = d.endpoint_id),
           (SELECT en.svix_headers FROM en WHERE en.id = d.endpoint_id),
           (SELECT en.ciphertexts FROM en WHERE en.id = d.endpoint_id),
           c.probe
    FROM c
    JOIN deliveries d ON d.id = c.delivery_id
    JOIN messages m ON m.id = d.message_id;
END $$;
