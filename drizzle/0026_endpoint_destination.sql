-- IF NOT EXISTS: the partition upgrade suite (tests/lifecycle/partition-upgrade.test.ts) drives this
-- release's code on an older schema and puts these columns in place beforehand, as for 0021's.
ALTER TABLE "endpoints" ADD COLUMN IF NOT EXISTS "destination" text DEFAULT 'http' NOT NULL;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN IF NOT EXISTS "target" jsonb;
