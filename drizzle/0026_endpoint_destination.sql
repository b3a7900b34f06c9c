ALTER TABLE "endpoints" ADD COLUMN "destination" text DEFAULT 'http' NOT NULL;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "target" jsonb;