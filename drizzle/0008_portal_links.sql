ALTER TABLE "portal_sessions" ADD COLUMN "capabilities" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD COLUMN "theme" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "portal_tokens" ADD COLUMN "capabilities" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "portal_tokens" ADD COLUMN "theme" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "portal_tokens" ADD COLUMN "session_ttl_seconds" integer DEFAULT 43200 NOT NULL;--> statement-breakpoint
CREATE INDEX "portal_sessions_consumer_idx" ON "portal_sessions" USING btree ("consumer_id");--> statement-breakpoint
CREATE INDEX "portal_tokens_consumer_idx" ON "portal_tokens" USING btree ("consumer_id");