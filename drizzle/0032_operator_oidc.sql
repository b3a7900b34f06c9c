ALTER TABLE "operators" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "oidc_issuer" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "oidc_subject" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "disabled_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "operators_oidc_subject_key" ON "operators" USING btree ("oidc_issuer","oidc_subject");--> statement-breakpoint
ALTER TABLE "operators" ADD CONSTRAINT "operators_oidc_subject_check" CHECK (("operators"."oidc_issuer" is null) = ("operators"."oidc_subject" is null));