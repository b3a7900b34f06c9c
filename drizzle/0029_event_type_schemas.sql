-- IF NOT EXISTS: the partition upgrade suite (tests/lifecycle/partition-upgrade.test.ts) drives this
-- release's code on an older schema and puts these in place beforehand, as for 0027's.
CREATE TABLE IF NOT EXISTS "event_type_schemas" (
	"event_type_id" text NOT NULL,
	"version" integer NOT NULL,
	"schema" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_type_schemas_event_type_id_version_pk" PRIMARY KEY("event_type_id","version"),
	CONSTRAINT "event_type_schemas_event_type_id_event_types_id_fk" FOREIGN KEY ("event_type_id") REFERENCES "public"."event_types"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN IF NOT EXISTS "schema_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "event_types" ADD COLUMN IF NOT EXISTS "enforcement" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN IF NOT EXISTS "schema_version" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN IF NOT EXISTS "schema_violations" jsonb;--> statement-breakpoint
-- An event type's schema from before versions is its version 1 (event_types is a catalogue: a few rows).
INSERT INTO "event_type_schemas" ("event_type_id", "version", "schema", "created_at")
	SELECT "id", 1, "schema", "updated_at" FROM "event_types" WHERE "schema" IS NOT NULL AND "schema_version" = 0
	ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "event_types" SET "schema_version" = 1 WHERE "schema" IS NOT NULL AND "schema_version" = 0;
