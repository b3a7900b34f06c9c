CREATE TABLE "failed_deliveries" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"consumer_id" text NOT NULL,
	"message_created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
-- Hand-written beside the generated table: drizzle-kit does not generate triggers. Whatever changes
-- a delivery's status (an outcome, a resend, a recovery, a cancel) keeps failed_deliveries in step;
-- the WHEN clauses keep every other update (each attempt's) from queuing anything. The triggers come
-- before the backfill: creating one locks deliveries against writes until this migration commits,
-- so the backfill sees every failed delivery; the indexes and the foreign key come after it, built
-- and checked once instead of row by row.
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
$$;--> statement-breakpoint
CREATE TRIGGER deliveries_failed_insert AFTER INSERT ON deliveries
FOR EACH ROW WHEN (NEW.status = 'failed') EXECUTE FUNCTION webhook_admin_track_failed_delivery();--> statement-breakpoint
CREATE TRIGGER deliveries_failed_update AFTER UPDATE OF status ON deliveries
FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND (OLD.status = 'failed' OR NEW.status = 'failed'))
EXECUTE FUNCTION webhook_admin_track_failed_delivery();--> statement-breakpoint
INSERT INTO failed_deliveries (delivery_id, message_id, endpoint_id, consumer_id, message_created_at)
SELECT d.id, d.message_id, d.endpoint_id, d.consumer_id, m.created_at FROM deliveries d JOIN messages m ON m.id = d.message_id
WHERE d.status = 'failed';--> statement-breakpoint
CREATE INDEX "failed_deliveries_created_idx" ON "failed_deliveries" USING btree ("message_created_at" DESC NULLS LAST,"message_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "failed_deliveries_consumer_idx" ON "failed_deliveries" USING btree ("consumer_id","message_created_at" DESC NULLS LAST,"message_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "failed_deliveries_endpoint_idx" ON "failed_deliveries" USING btree ("endpoint_id","message_created_at" DESC NULLS LAST,"message_id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "failed_deliveries" ADD CONSTRAINT "failed_deliveries_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;
