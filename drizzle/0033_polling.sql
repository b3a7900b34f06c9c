-- Polling endpoints (lib/polling; docs/adr/0046-polling-endpoints.md): their committed position and last poll, their tokens, and the Svix poller's stored positions.
CREATE TABLE "poll_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"consumer_id" text,
	"hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "poller_consumers" (
	"endpoint_id" text NOT NULL,
	"name" text NOT NULL,
	"consumer_id" text,
	"position" text NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "poller_consumers_endpoint_id_name_pk" PRIMARY KEY("endpoint_id","name")
);
--> statement-breakpoint
-- IF NOT EXISTS: the partition upgrade suite (tests/lifecycle/partition-upgrade.test.ts) drives this
-- release's code on an older schema and puts these in place beforehand, as for 0030's.
ALTER TABLE "endpoints" ADD COLUMN IF NOT EXISTS "poll_position" text;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN IF NOT EXISTS "last_polled_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "poll_tokens" ADD CONSTRAINT "poll_tokens_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poller_consumers" ADD CONSTRAINT "poller_consumers_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "poll_tokens_hash_key" ON "poll_tokens" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "poll_tokens_endpoint_idx" ON "poll_tokens" USING btree ("endpoint_id","created_at");