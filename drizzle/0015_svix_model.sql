-- The Svix-compatible API's model: endpoint uid, metadata and channels, imported Svix ids as aliases,
-- svix-* signature headers, message channels and tags, the URL each attempt went to, event type
-- archive/deprecation/groups, event ids unique per consumer (where asked) and idempotency of every POST.
-- The claim also returns each endpoint's svix_headers now: a new result type, so a new function,
-- webhook_admin_claim_deliveries_v2 (lib/db/functions.ts creates it after the migrations). The
-- previous release's webhook_admin_claim_deliveries stays for its workers, which go on claiming with
-- it during a rollout (and re-create it when they restart, which CREATE OR REPLACE could not do over
-- a changed result type); a later release drops it.
CREATE TABLE "api_idempotency" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"status" integer,
	"body" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_event_ids" (
	"consumer_id" text NOT NULL,
	"event_id" text NOT NULL,
	"message_id" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "message_event_ids_consumer_id_event_id_pk" PRIMARY KEY("consumer_id","event_id")
);
--> statement-breakpoint
ALTER TABLE "consumers" ADD COLUMN "svix_id" text;--> statement-breakpoint
ALTER TABLE "consumers" ADD COLUMN "throttle_rate" integer;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "archived" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "deprecated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN "group_name" text;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "uid" text;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "channels" text[];--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "svix_id" text;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "svix_headers" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "channels" text[];--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "tags" text[];--> statement-breakpoint
ALTER TABLE "message_event_ids" ADD CONSTRAINT "message_event_ids_consumer_id_consumers_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."consumers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_idempotency_expires_idx" ON "api_idempotency" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "message_event_ids_expires_idx" ON "message_event_ids" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "consumers_svix_id_key" ON "consumers" USING btree ("svix_id") WHERE "consumers"."svix_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "endpoints_consumer_uid_key" ON "endpoints" USING btree ("consumer_id","uid") WHERE "endpoints"."uid" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "endpoints_svix_id_key" ON "endpoints" USING btree ("svix_id") WHERE "endpoints"."svix_id" is not null;--> statement-breakpoint
-- concurrently
CREATE INDEX CONCURRENTLY IF NOT EXISTS "messages_event_id_idx" ON "messages" USING btree ("consumer_id","event_id") WHERE "messages"."event_id" is not null;
