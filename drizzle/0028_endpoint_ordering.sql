-- Ordered delivery (lib/deliveries/lines.sql) and the filter's version (lib/messages/load-filters.ts).
-- IF NOT EXISTS: the partition upgrade suite (tests/lifecycle/partition-upgrade.test.ts) drives this
-- release's code on an older schema and puts these columns in place beforehand, as for 0027's.
-- Constant defaults and nullable columns: catalog changes only.
ALTER TABLE "endpoints" ADD COLUMN IF NOT EXISTS "filter_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN IF NOT EXISTS "ordering" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN IF NOT EXISTS "ordering_key" text;--> statement-breakpoint
ALTER TABLE "delivery_queue" ADD COLUMN IF NOT EXISTS "line_key" text;--> statement-breakpoint
ALTER TABLE "delivery_queue" ADD COLUMN IF NOT EXISTS "line_seq" bigint;--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "delivery_line_seq";--> statement-breakpoint
-- concurrently
-- The queue is written on every attempt: built without blocking it. Partial: only ordered endpoints' rows.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "delivery_queue_line_idx" ON "delivery_queue" USING btree ("endpoint_id","line_key","kind","line_seq") WHERE "delivery_queue"."line_key" is not null;
