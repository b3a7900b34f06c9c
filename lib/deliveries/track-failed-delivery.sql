-- Keeps failed_deliveries (the message log's status=failed path) in step with deliveries.status:
-- the trigger function of deliveries' status changes. First made by migration 0011; applied after
-- the migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_track_failed_delivery() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'failed' THEN
    INSERT INTO failed_deliveries (delivery_id, message_id, endpoint_id, consumer_id, message_created_at)
    SELECT NEW.id, NEW.message_id, NEW.endpoint_id, NEW.consumer_id, m.created_at FROM messages m WHERE m.id = NEW.message_id
    ON CONFLICT (delivery_id) DO NOTHING;
  ELSE
    DELETE FROM failed_deliveries WHERE delivery_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;
