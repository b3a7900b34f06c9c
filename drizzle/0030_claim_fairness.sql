-- Fair claiming across consumers (lib/deliveries/claim/scan-due.sql; docs/adr/0043-fair-claim.md).
-- IF NOT EXISTS: the partition upgrade suite (tests/lifecycle/partition-upgrade.test.ts) drives this
-- release's code on an older schema and puts these in place beforehand, as for 0028's.
CREATE TABLE IF NOT EXISTS "claim_rotation" (
	"kind" smallint PRIMARY KEY NOT NULL,
	"after_consumer" text
);
--> statement-breakpoint
INSERT INTO "claim_rotation" ("kind") VALUES (0), (1), (2) ON CONFLICT DO NOTHING;--> statement-breakpoint
-- A constant default: a catalog change only.
ALTER TABLE "consumers" ADD COLUMN IF NOT EXISTS "weight" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- NOT VALID, then validated apart: the check of the existing rows does not block writes to consumers.
ALTER TABLE "consumers" DROP CONSTRAINT IF EXISTS "consumers_weight_check";--> statement-breakpoint
ALTER TABLE "consumers" ADD CONSTRAINT "consumers_weight_check" CHECK ("consumers"."weight" between 1 and 100) NOT VALID;--> statement-breakpoint
ALTER TABLE "consumers" VALIDATE CONSTRAINT "consumers_weight_check";--> statement-breakpoint
-- concurrently
-- The queue is written on every attempt: built without blocking it.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "delivery_queue_consumer_due_idx" ON "delivery_queue" USING btree ("kind","consumer_id","next_attempt_at");
