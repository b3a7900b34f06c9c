-- The Svix API's stored answer to POST /app/{app}/msg holds the message's payload (unless asked
-- without content) and names neither the consumer nor the message in a column: a payload expunge
-- left the bytes in it, and an erasure found it only by the consumer's names in its text, which a
-- message's answer does not hold. Its message now is a column of its own, indexed for both. Answers
-- stored before this (and by the previous release while an upgrade rolls) carry none: they expire
-- with IDEMPOTENCY_TTL (24 h). Nullable, no default: a catalog change only.
ALTER TABLE "api_idempotency" ADD COLUMN IF NOT EXISTS "message_id" text;--> statement-breakpoint
-- concurrently
-- The table holds a day of the Svix API's POSTs: built without blocking them.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "api_idempotency_message_idx" ON "api_idempotency" USING btree ("message_id") WHERE "api_idempotency"."message_id" is not null;
