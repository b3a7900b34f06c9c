-- consumer_id on the tables that reached their consumer only through a parent row (issue 22,
-- docs/scaling.md "Schema changes for this path"): the column a database sharded by consumer
-- distributes on. An expand step, catalog changes only on the tables that grow with traffic: a
-- nullable column that every writer of this release fills. Rows from before it — and rows the
-- previous release's processes write while an upgrade rolls — lack it; delivery_queue's end with
-- their delivery and recovery_items' with their run. A later release's contract step fills what is
-- left and makes the columns NOT NULL (CHECK … NOT VALID, then VALIDATE, on the growing tables).
-- endpoint_secrets (a row per secret) and recovery_sends (a row per run) are small: filled here.
-- IF NOT EXISTS: the partition upgrade suite drives this release's code on an older schema and puts
-- the columns in place itself.
ALTER TABLE "delivery_queue" ADD COLUMN IF NOT EXISTS "consumer_id" text;--> statement-breakpoint
ALTER TABLE "recovery_items" ADD COLUMN IF NOT EXISTS "consumer_id" text;--> statement-breakpoint
ALTER TABLE "endpoint_secrets" ADD COLUMN IF NOT EXISTS "consumer_id" text;--> statement-breakpoint
UPDATE "endpoint_secrets" s SET "consumer_id" = e."consumer_id" FROM "endpoints" e WHERE e."id" = s."endpoint_id";--> statement-breakpoint
ALTER TABLE "recovery_sends" ADD COLUMN IF NOT EXISTS "consumer_id" text;--> statement-breakpoint
UPDATE "recovery_sends" s SET "consumer_id" = r."consumer_id" FROM "recoveries" r WHERE r."id" = s."recovery_id";
