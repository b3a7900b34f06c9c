-- Data lifecycle (issue 21, first pass): the sweep's record of its runs (sweep_runs) and consumer
-- erasures (erasures), new and empty; consumers.deleted_at (an erasure under way hides the consumer;
-- a partial index finds the few) and messages.payload_expunged_at (DELETE /messages/{id}/payload),
-- nullable without a default, so adding them rewrites and scans nothing; and an index for the
-- rollup's retention by time, built CONCURRENTLY after the transaction (attempt_stats grows with traffic).
CREATE TABLE "erasures" (
	"id" text PRIMARY KEY NOT NULL,
	"consumer_id" text NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"messages_total" integer DEFAULT 0 NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"endpoint_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"terms" text[] DEFAULT '{}'::text[] NOT NULL,
	"requested_by_type" text NOT NULL,
	"requested_by_id" text,
	"settles_at" timestamp (3) with time zone NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "sweep_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"removed" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"more" boolean DEFAULT false NOT NULL,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "consumers" ADD COLUMN "deleted_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "payload_expunged_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "erasures_consumer_idx" ON "erasures" USING btree ("consumer_id");--> statement-breakpoint
CREATE INDEX "erasures_running_idx" ON "erasures" USING btree ("started_at") WHERE "erasures"."state" = 'running';--> statement-breakpoint
CREATE INDEX "sweep_runs_started_idx" ON "sweep_runs" USING btree ("started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "consumers_deleted_idx" ON "consumers" USING btree ("deleted_at") WHERE "consumers"."deleted_at" is not null;--> statement-breakpoint
-- concurrently
CREATE INDEX CONCURRENTLY IF NOT EXISTS "attempt_stats_t_idx" ON "attempt_stats" USING btree ("bucket_seconds","t");