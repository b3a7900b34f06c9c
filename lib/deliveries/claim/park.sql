-- Parks the rows the claim set aside, as close to the commit as statements get: last in the claim.
-- A lease whose outcome another transaction is writing (its row is locked or already gone) cannot
-- wake what this claim parks for its slot, since that outcome's snapshot does not see these parks.
-- Such waits get a brief safety net instead of the lease's end. They are parked all the same, so
-- the endpoint's next outcome still hands them its slot in kind order: due work left unparked would
-- lose it to recovery items parked earlier. Parked rows come due again at their time; a wake-up is
-- added for it. Applied after the migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_claim_park(p_items webhook_admin_claim_item[], p_token text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  w record;
  v_releasing boolean;
  v_released text[] := '{}';
  v_soon timestamptz;
  v_untils timestamptz[];
BEGIN
  FOR w IN SELECT DISTINCT i.endpoint_id, i.wait_leased FROM unnest(p_items) AS i WHERE i.action = 'park' AND i.wait_leased IS NOT NULL LOOP
    SELECT count(*) < w.wait_leased INTO v_releasing FROM (
      SELECT 1 FROM delivery_queue l
      WHERE l.endpoint_id = w.endpoint_id AND l.lease_token IS NOT NULL AND l.lease_token <> p_token
        AND l.next_attempt_at > now()
      FOR KEY SHARE SKIP LOCKED
    ) x;
    IF v_releasing THEN
      v_released := v_released || w.endpoint_id;
    END IF;
  END LOOP;
  v_soon := clock_timestamp() + interval '100 milliseconds';
  -- A row due again because its lease ran out (its worker died, its outcome was lost) keeps no
  -- token: parked with it, it would count as a lease in flight and hold a slot until its time.
  WITH p AS (
    SELECT i.delivery_id, i.kind, i.for_slot,
           CASE WHEN i.for_slot AND i.endpoint_id = ANY (v_released) THEN v_soon ELSE i.until END AS until
    FROM unnest(p_items) AS i WHERE i.action = 'park'
  ),
  parked AS (
    UPDATE delivery_queue q SET parked = q.parked OR p.for_slot, next_attempt_at = p.until, lease_token = NULL
    FROM p WHERE q.delivery_id = p.delivery_id AND q.kind = p.kind
    RETURNING 1
  )
  SELECT array_agg(p.until) INTO v_untils FROM p;
  PERFORM webhook_admin_wake_deliveries(v_untils);
END $$;
