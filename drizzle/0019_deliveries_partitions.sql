-- Time partitions for deliveries (issue 21, ADR 0034): deliveries becomes a table partitioned by
-- RANGE ("id"), one partition per UTC day, like messages and attempts in 0017. A delivery's id takes
-- its message's millisecond (lib/ids.ts deliveryIdFor), so every delivery of a message falls in the
-- message's day and a day of deliveries is dropped with that day of messages.
--
-- As in 0017 the upgrade touches only the catalog: the table is renamed deliveries_default (its
-- indexes likewise), a partitioned table of the same columns takes its name, and the old table is
-- attached as its DEFAULT partition. Nothing is scanned, built or validated:
--
-- - (message_id, endpoint_id) is unique per partition, not on the parent (a unique index of a
--   partitioned table must contain the partition key). The default keeps its unique index; the
--   sweep makes each day's with the day (lib/retention/partitions.ts). All of a message's
--   deliveries are in one partition, so the index of that partition is the arbiter of
--   `on conflict do nothing` in resends and recoveries.
-- - deliveries.message_id's foreign key is not on the parent: PostgreSQL 17 refuses a NOT VALID key
--   on a partitioned table, and a valid one would be validated over every old row when the default
--   is attached (a scan of deliveries joined to messages while writes wait). The default keeps the
--   key 0017 made; day partitions have none (ADR 0034: dropping a day's key would lock every
--   partition of messages). The endpoint's key is valid and moves to the parent.
-- - the foreign keys of delivery_queue and failed_deliveries move to the new parent NOT VALID: the
--   rows they cover were checked by the keys they replace (to the same rows).
-- - the failed_deliveries triggers move to the parent (PostgreSQL clones them to each partition).
ALTER TABLE "deliveries" RENAME TO "deliveries_default";
--> statement-breakpoint
ALTER INDEX "deliveries_pkey" RENAME TO "deliveries_default_pkey";
--> statement-breakpoint
ALTER INDEX "deliveries_endpoint_idx" RENAME TO "deliveries_default_endpoint_idx";
--> statement-breakpoint
ALTER INDEX "deliveries_message_endpoint_idx" RENAME TO "deliveries_default_message_endpoint_idx";
--> statement-breakpoint
ALTER TABLE "delivery_queue" DROP CONSTRAINT "delivery_queue_delivery_id_deliveries_id_fk";
--> statement-breakpoint
ALTER TABLE "failed_deliveries" DROP CONSTRAINT "failed_deliveries_delivery_id_deliveries_id_fk";
--> statement-breakpoint
DROP TRIGGER "deliveries_failed_insert" ON "deliveries_default";
--> statement-breakpoint
DROP TRIGGER "deliveries_failed_update" ON "deliveries_default";
--> statement-breakpoint
CREATE TABLE "deliveries" (LIKE "deliveries_default" INCLUDING DEFAULTS INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY RANGE ("id");
--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id");
--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "deliveries_endpoint_idx" ON "deliveries" USING btree ("endpoint_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
CREATE TRIGGER "deliveries_failed_insert" AFTER INSERT ON "deliveries"
FOR EACH ROW WHEN (NEW.status = 'failed') EXECUTE FUNCTION webhook_admin_track_failed_delivery();
--> statement-breakpoint
CREATE TRIGGER "deliveries_failed_update" AFTER UPDATE OF status ON "deliveries"
FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND (OLD.status = 'failed' OR NEW.status = 'failed'))
EXECUTE FUNCTION webhook_admin_track_failed_delivery();
--> statement-breakpoint
ALTER TABLE "deliveries" ATTACH PARTITION "deliveries_default" DEFAULT;
--> statement-breakpoint
ALTER TABLE "delivery_queue" ADD CONSTRAINT "delivery_queue_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action NOT VALID;
--> statement-breakpoint
ALTER TABLE "failed_deliveries" ADD CONSTRAINT "failed_deliveries_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action NOT VALID;
