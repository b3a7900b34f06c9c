-- IF NOT EXISTS: the partition upgrade suite (tests/lifecycle/partition-upgrade.test.ts) drives this
-- release's code on an older schema and puts these columns in place beforehand, as for 0026's.
ALTER TABLE "endpoints" ADD COLUMN IF NOT EXISTS "filter" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN IF NOT EXISTS "filtered_endpoint_ids" text[];
