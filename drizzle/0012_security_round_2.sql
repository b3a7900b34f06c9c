ALTER TABLE "messages" ADD COLUMN "is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "login_failures" ADD COLUMN "kind" text DEFAULT 'password' NOT NULL;--> statement-breakpoint
-- The claim returns whether a message is a test send (lib/deliveries/claim-due-deliveries.sql, applied after the migrations).
DROP FUNCTION IF EXISTS webhook_admin_claim_deliveries(integer, integer, integer, text, timestamptz);
