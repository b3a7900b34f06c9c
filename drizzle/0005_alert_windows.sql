CREATE TABLE "alert_windows" (
	"endpoint_id" text NOT NULL,
	"target" text NOT NULL,
	"window_at" timestamp (3) with time zone,
	"window_alert_id" text,
	"not_sent" integer DEFAULT 0 NOT NULL,
	"not_sent_since" timestamp (3) with time zone,
	CONSTRAINT "alert_windows_endpoint_id_target_pk" PRIMARY KEY("endpoint_id","target")
);
--> statement-breakpoint
DROP TABLE "alert_throttles" CASCADE;--> statement-breakpoint
ALTER TABLE "alert_windows" ADD CONSTRAINT "alert_windows_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_windows_target_idx" ON "alert_windows" USING btree ("target");