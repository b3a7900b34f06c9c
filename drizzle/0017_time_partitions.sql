-- Time partitioning (issue 21, ADR 0034): messages, attempts, audit_events and alerts become tables
-- partitioned by RANGE ("id") — ids begin with the milliseconds they were made in (lib/ids.ts), so
-- text order is time order and a day is a range of ids. The primary keys, the foreign keys and every
-- `where id = $1` stay as they were. The sweep (lib/retention/partitions.ts) makes one partition per
-- UTC day ahead of time and drops whole days past their retention.
--
-- The upgrade touches only the catalog: each existing table is renamed <table>_default (its indexes
-- likewise), a partitioned table of the same columns, keys and indexes takes the old name, and the
-- old table is attached as its DEFAULT partition. The parent has no other partition at that moment,
-- so PostgreSQL has nothing to check (no scan), and its indexes and foreign key are matched to the
-- existing ones (nothing is built or validated). Writes wait only for these catalog changes
-- (measured in docs/operating.md). Rows already there stay in the default partition, which the
-- sweep's batched retention empties over RETENTION_PERIOD; new days get partitions of their own.
--
-- messages_event_id_idx is built CONCURRENTLY after the transaction by 0015: an install coming from
-- before 0015 has none yet, and it is built here, on the default partition, inside the transaction
-- (a scan of messages; PostgreSQL cannot build an index CONCURRENTLY on a partitioned table).
--
-- deliveries.message_id's foreign key is moved to the new parent NOT VALID: the rows it covers were
-- checked by the key it replaces (to the same rows), and new rows are checked as before.

-- messages
ALTER TABLE "messages" RENAME TO "messages_default";
--> statement-breakpoint
ALTER INDEX "messages_pkey" RENAME TO "messages_default_pkey";
--> statement-breakpoint
ALTER INDEX "messages_created_idx" RENAME TO "messages_default_created_idx";
--> statement-breakpoint
ALTER INDEX "messages_consumer_idx" RENAME TO "messages_default_consumer_idx";
--> statement-breakpoint
ALTER INDEX "messages_event_type_idx" RENAME TO "messages_default_event_type_idx";
--> statement-breakpoint
ALTER INDEX IF EXISTS "messages_event_id_idx" RENAME TO "messages_default_event_id_idx";
--> statement-breakpoint
ALTER INDEX "messages_payload_idx" RENAME TO "messages_default_payload_idx";
--> statement-breakpoint
ALTER TABLE "deliveries" DROP CONSTRAINT "deliveries_message_id_messages_id_fk";
--> statement-breakpoint
CREATE TABLE "messages" (LIKE "messages_default" INCLUDING DEFAULTS INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY RANGE ("id");
--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_pkey" PRIMARY KEY ("id");
--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_consumer_id_consumers_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."consumers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "messages_created_idx" ON "messages" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "messages_consumer_idx" ON "messages" USING btree ("consumer_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "messages_event_type_idx" ON "messages" USING btree ("event_type","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "messages_event_id_idx" ON "messages" USING btree ("consumer_id","event_id") WHERE "messages"."event_id" is not null;
--> statement-breakpoint
CREATE INDEX "messages_payload_idx" ON "messages" USING gin (webhook_admin_payload_jsonb("payload") jsonb_path_ops);
--> statement-breakpoint
ALTER TABLE "messages" ATTACH PARTITION "messages_default" DEFAULT;
--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action NOT VALID;
--> statement-breakpoint
-- attempts
ALTER TABLE "attempts" RENAME TO "attempts_default";
--> statement-breakpoint
ALTER INDEX "attempts_pkey" RENAME TO "attempts_default_pkey";
--> statement-breakpoint
ALTER INDEX "attempts_created_idx" RENAME TO "attempts_default_created_idx";
--> statement-breakpoint
ALTER INDEX "attempts_message_idx" RENAME TO "attempts_default_message_idx";
--> statement-breakpoint
ALTER INDEX "attempts_endpoint_idx" RENAME TO "attempts_default_endpoint_idx";
--> statement-breakpoint
ALTER INDEX "attempts_consumer_idx" RENAME TO "attempts_default_consumer_idx";
--> statement-breakpoint
CREATE TABLE "attempts" (LIKE "attempts_default" INCLUDING DEFAULTS INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY RANGE ("id");
--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_pkey" PRIMARY KEY ("id");
--> statement-breakpoint
CREATE INDEX "attempts_created_idx" ON "attempts" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "attempts_message_idx" ON "attempts" USING btree ("message_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "attempts_endpoint_idx" ON "attempts" USING btree ("endpoint_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "attempts_consumer_idx" ON "attempts" USING btree ("consumer_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
ALTER TABLE "attempts" ATTACH PARTITION "attempts_default" DEFAULT;
--> statement-breakpoint
-- audit_events
ALTER TABLE "audit_events" RENAME TO "audit_events_default";
--> statement-breakpoint
ALTER INDEX "audit_events_pkey" RENAME TO "audit_events_default_pkey";
--> statement-breakpoint
ALTER INDEX "audit_events_target_idx" RENAME TO "audit_events_default_target_idx";
--> statement-breakpoint
ALTER INDEX "audit_events_created_idx" RENAME TO "audit_events_default_created_idx";
--> statement-breakpoint
CREATE TABLE "audit_events" (LIKE "audit_events_default" INCLUDING DEFAULTS INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY RANGE ("id");
--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id");
--> statement-breakpoint
CREATE INDEX "audit_events_target_idx" ON "audit_events" USING btree ("target_id","created_at" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "audit_events_created_idx" ON "audit_events" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
ALTER TABLE "audit_events" ATTACH PARTITION "audit_events_default" DEFAULT;
--> statement-breakpoint
-- alerts
ALTER TABLE "alerts" RENAME TO "alerts_default";
--> statement-breakpoint
ALTER INDEX "alerts_pkey" RENAME TO "alerts_default_pkey";
--> statement-breakpoint
ALTER INDEX "alerts_created_idx" RENAME TO "alerts_default_created_idx";
--> statement-breakpoint
ALTER INDEX "alerts_endpoint_idx" RENAME TO "alerts_default_endpoint_idx";
--> statement-breakpoint
ALTER INDEX "alerts_kind_idx" RENAME TO "alerts_default_kind_idx";
--> statement-breakpoint
CREATE TABLE "alerts" (LIKE "alerts_default" INCLUDING DEFAULTS INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY RANGE ("id");
--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_pkey" PRIMARY KEY ("id");
--> statement-breakpoint
CREATE INDEX "alerts_created_idx" ON "alerts" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "alerts_endpoint_idx" ON "alerts" USING btree ("endpoint_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "alerts_kind_idx" ON "alerts" USING btree ("kind","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
ALTER TABLE "alerts" ATTACH PARTITION "alerts_default" DEFAULT;
