CREATE TABLE "recovery_sends" (
	"recovery_id" text PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone[] DEFAULT '{}' NOT NULL,
	"sent_count" integer[] DEFAULT '{}' NOT NULL,
	"tokens" double precision,
	"tokens_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "recoveries" ADD COLUMN "current_rate" double precision;--> statement-breakpoint
ALTER TABLE "recovery_sends" ADD CONSTRAINT "recovery_sends_recovery_id_recoveries_id_fk" FOREIGN KEY ("recovery_id") REFERENCES "public"."recoveries"("id") ON DELETE cascade ON UPDATE no action;