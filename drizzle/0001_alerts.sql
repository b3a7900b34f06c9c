CREATE TABLE "alert_throttles" (
	"endpoint_id" text NOT NULL,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"last_sent_at" timestamp (3) with time zone NOT NULL,
	"last_alert_id" text NOT NULL,
	"suppressed" integer DEFAULT 0 NOT NULL,
	"folded" integer DEFAULT 0 NOT NULL,
	"folded_since" timestamp (3) with time zone,
	CONSTRAINT "alert_throttles_endpoint_id_kind_target_pk" PRIMARY KEY("endpoint_id","kind","target")
);
--> statement-breakpoint
DROP INDEX "alerts_endpoint_idx";--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "message" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_throttles" ADD CONSTRAINT "alert_throttles_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_throttles_target_idx" ON "alert_throttles" USING btree ("target");--> statement-breakpoint
CREATE INDEX "alert_channels_created_idx" ON "alert_channels" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_kind_idx" ON "alerts" USING btree ("kind","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_endpoint_idx" ON "alerts" USING btree ("endpoint_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);