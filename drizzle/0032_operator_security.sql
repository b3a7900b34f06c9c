CREATE TABLE "dashboard_settings" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"require_two_factor" boolean DEFAULT false NOT NULL,
	CONSTRAINT "dashboard_settings_one_row" CHECK ("dashboard_settings"."id")
);
--> statement-breakpoint
CREATE TABLE "operator_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"operator_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"user_agent" text,
	"address" text,
	"ended_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "operator_two_factor" (
	"operator_id" text PRIMARY KEY NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"key_id" text NOT NULL,
	"confirmed_at" timestamp (3) with time zone,
	"last_step" bigint,
	"recovery_code_hashes" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operator_sessions" ADD CONSTRAINT "operator_sessions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_two_factor" ADD CONSTRAINT "operator_two_factor_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_sessions_operator_idx" ON "operator_sessions" USING btree ("operator_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "operator_sessions_expires_idx" ON "operator_sessions" USING btree ("expires_at");--> statement-breakpoint
INSERT INTO "dashboard_settings" ("id") VALUES (true) ON CONFLICT DO NOTHING;
