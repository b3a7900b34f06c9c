-- Leases the claimed rows and returns what their attempts need. The lease is the queue row's
-- next_attempt_at pushed to the lease's end, with p_token: if the worker dies, the row comes due
-- again then, and a late outcome from the old holder no longer matches the token.
-- deliveries and messages are partitioned by id, a day each (ADR 0034), and a join can prune them
-- only at run time: its plan takes in every day, and planning it opened every partition and index
-- of both (about 35 days each at RETENTION_PERIOD=30d), milliseconds for each of the six plans
-- plpgsql makes on a connection before it keeps a generic one. So the rows are read bounded by ids
-- — the claimed deliveries' range, then their messages' — and the statements run on generic plans,
-- made once per connection: the bounds prune both tables to the days they are in when each
-- execution starts. (Planned afresh with the bounds' values instead, as until 2026-12-03, the lease
-- spent most of a one-row claim planning; ADR 0034 and bench/results/2026-12-03-b6-part-b-and-the-lean-probe.md,
-- "The lease on generic plans", have the figures.)
-- Where a delivery goes is its endpoint's `destination` (a kind of lib/destinations/) and `target`
-- (what that kind stores, as jsonb), whatever the kind: a new kind changes neither this result nor
-- this body. http's target is built from the columns it had before there were kinds.
-- Applied after the migrations by lib/db/functions.ts.
-- A result type cannot be replaced: a database whose lease still returns the HTTP columns (url,
-- headers, svix_headers: before the destination seam, never released) has it dropped first.
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_proc p WHERE p.oid = to_regprocedure('webhook_admin_claim_lease(webhook_admin_claim_item[], text, timestamptz)')
             AND NOT 'target' = ANY (p.proargnames)) THEN
    DROP FUNCTION webhook_admin_claim_lease(webhook_admin_claim_item[], text, timestamptz);
  END IF;
END $$;
CREATE OR REPLACE FUNCTION webhook_admin_claim_lease(p_items webhook_admin_claim_item[], p_token text, p_lease_end timestamptz)
RETURNS TABLE (
  id text, kind smallint, message_id text, endpoint_id text, consumer_id text, attempts integer, scheduled_attempts integer,
  created_at timestamptz, payload text, is_test boolean, destination text, target jsonb, ciphertexts text[], probe boolean
)
LANGUAGE plpgsql SET plan_cache_mode TO force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_first text;
  v_last text;
  v_first_message text;
  v_last_message text;
BEGIN
  UPDATE delivery_queue q SET next_attempt_at = p_lease_end, lease_token = p_token, parked = false
  FROM unnest(p_items) AS i
  WHERE i.action = 'claim' AND q.delivery_id = i.delivery_id AND q.kind = i.kind;
  SELECT min(i.delivery_id), max(i.delivery_id) INTO v_first, v_last FROM unnest(p_items) AS i WHERE i.action = 'claim';
  -- A delivery made since migration 0019 has its message's millisecond; one made before it, in the
  -- default partition, its own: its message's id is not bounded by the delivery's, so it is read.
  SELECT min(d.message_id), max(d.message_id) INTO v_first_message, v_last_message
  FROM deliveries d WHERE d.id IN (SELECT i.delivery_id FROM unnest(p_items) AS i WHERE i.action = 'claim') AND d.id BETWEEN v_first AND v_last;
  -- Driven by the claimed rows, with the endpoints' fields looked up in en per row: joined to
  -- endpoints, the planner may start from the few endpoints and walk each one's whole delivery history.
  RETURN QUERY
    WITH c AS MATERIALIZED (
      SELECT i.delivery_id, i.kind, i.endpoint_id, i.probe FROM unnest(p_items) AS i WHERE i.action = 'claim'
    ),
    en AS MATERIALIZED (
      -- Targets and secrets made once per endpoint, not once per delivery.
      SELECT en.id, en.destination,
             CASE WHEN en.destination = 'http' THEN jsonb_build_object('url', en.url, 'headers', en.headers, 'svix_headers', en.svix_headers)
                  ELSE en.target END AS target,
             webhook_admin_signing_secrets(en.id) AS ciphertexts
      FROM endpoints en WHERE en.id IN (SELECT c.endpoint_id FROM c)
    )
    SELECT d.id, c.kind, d.message_id, d.endpoint_id, d.consumer_id, d.attempts, d.scheduled_attempts, d.created_at::timestamptz,
           m.payload, m.is_test, e.destination, e.target, e.ciphertexts, c.probe
    FROM c
    JOIN deliveries d ON d.id = c.delivery_id AND d.id BETWEEN v_first AND v_last
    JOIN messages m ON m.id = d.message_id AND m.id BETWEEN v_first_message AND v_last_message
    -- One look in en per row for all three fields: a subquery for each, three scans of en a row,
    -- were a sixth of a claim of 100 rows over 100 endpoints (bench/results/2026-12-07-quick-claims.md).
    LEFT JOIN LATERAL (SELECT en.destination, en.target, en.ciphertexts FROM en WHERE en.id = d.endpoint_id) e ON true;
END $$;
