-- The recoveries table was never written before this: it is made anew in its real shape.
DROP TABLE "recoveries";--> statement-breakpoint
CREATE TABLE "recoveries" (
	"id" text PRIMARY KEY NOT NULL,
	"consumer_id" text NOT NULL,
	"endpoint_id" text,
	"state" text DEFAULT 'planned' NOT NULL,
	"stop_reason" text,
	"scope" jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"expected" integer DEFAULT 0 NOT NULL,
	"queued" integer DEFAULT 0 NOT NULL,
	"succeeded" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"recent" text DEFAULT '' NOT NULL,
	"tokens" double precision DEFAULT 0 NOT NULL,
	"tokens_at" timestamp (3) with time zone,
	"ramp_started_at" timestamp (3) with time zone,
	"created_by_type" text NOT NULL,
	"created_by_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "recoveries" ADD CONSTRAINT "recoveries_consumer_id_consumers_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."consumers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recoveries_created_idx" ON "recoveries" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "recoveries_consumer_idx" ON "recoveries" USING btree ("consumer_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "recoveries_active_idx" ON "recoveries" USING btree ("state") WHERE "recoveries"."state" in ('planned', 'canary', 'running', 'paused');--> statement-breakpoint
CREATE TABLE "recovery_items" (
	"recovery_id" text NOT NULL,
	"seq" integer NOT NULL,
	"message_id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"delivery_id" text,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"skip_reason" text,
	"attempt_id" text,
	"status_code" integer,
	"error" text,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recovery_items_recovery_id_seq_pk" PRIMARY KEY("recovery_id","seq")
);
--> statement-breakpoint
DROP INDEX "deliveries_message_idx";--> statement-breakpoint
DROP INDEX "delivery_queue_due_idx";--> statement-breakpoint
DROP INDEX "delivery_queue_parked_idx";--> statement-breakpoint
ALTER TABLE "delivery_queue" ADD COLUMN "kind" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "delivery_queue" ADD COLUMN "recovery_id" text;--> statement-breakpoint
-- A delivery may now wait once for each kind of work (scheduled, manual, recovery).
ALTER TABLE "delivery_queue" DROP CONSTRAINT "delivery_queue_pkey";--> statement-breakpoint
ALTER TABLE "delivery_queue" ADD CONSTRAINT "delivery_queue_delivery_id_kind_pk" PRIMARY KEY("delivery_id","kind");--> statement-breakpoint
-- The claim function's result gains the queue kind: the new one is created by lib/db/functions.ts.
DROP FUNCTION IF EXISTS webhook_admin_claim_deliveries(integer, integer, integer, text, timestamptz);--> statement-breakpoint
ALTER TABLE "recovery_items" ADD CONSTRAINT "recovery_items_recovery_id_recoveries_id_fk" FOREIGN KEY ("recovery_id") REFERENCES "public"."recoveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recovery_items_open_idx" ON "recovery_items" USING btree ("recovery_id","outcome","seq") WHERE "recovery_items"."outcome" in ('pending', 'queued');--> statement-breakpoint
CREATE INDEX "recovery_items_delivery_idx" ON "recovery_items" USING btree ("recovery_id","delivery_id");--> statement-breakpoint
CREATE INDEX "recovery_items_target_idx" ON "recovery_items" USING btree ("message_id","endpoint_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_message_endpoint_idx" ON "deliveries" USING btree ("message_id","endpoint_id");--> statement-breakpoint
CREATE INDEX "delivery_queue_recovery_idx" ON "delivery_queue" USING btree ("recovery_id") WHERE "delivery_queue"."recovery_id" is not null;--> statement-breakpoint
CREATE INDEX "delivery_queue_due_idx" ON "delivery_queue" USING btree ("kind","next_attempt_at");--> statement-breakpoint
CREATE INDEX "delivery_queue_parked_idx" ON "delivery_queue" USING btree ("endpoint_id","kind","next_attempt_at") WHERE "delivery_queue"."parked";--> statement-breakpoint