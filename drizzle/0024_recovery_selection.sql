-- Recovery runs are selected in the worker, in batches, up to an item cap (issue 42): whether a run
-- is still selecting and where, its cap, and whether the cap cut its scope. Nullable or defaulted
-- columns: the previous release, writing runs during an upgrade, leaves them to their defaults.
ALTER TABLE "recoveries" ADD COLUMN "selecting" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "recoveries" ADD COLUMN "select_after" jsonb;--> statement-breakpoint
ALTER TABLE "recoveries" ADD COLUMN "item_limit" integer;--> statement-breakpoint
ALTER TABLE "recoveries" ADD COLUMN "capped" boolean DEFAULT false NOT NULL;