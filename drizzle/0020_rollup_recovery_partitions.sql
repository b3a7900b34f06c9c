-- Time partitions for the minute rollup and recovery items (issue 21, ADR 0034), as 0017 and 0019
-- made them for messages, deliveries, attempts, audit events and alerts:
--
-- - attempt_stats is partitioned by RANGE ("bucket_seconds", "t"): the sweep makes one partition per
--   UTC day of minute rows (bucket_seconds 60, kept STATS_MINUTE_RETENTION) and one per UTC month of
--   hourly rows (3600, kept STATS_RETENTION), and drops them whole once past their retention. Its
--   primary key (scope, bucket_seconds, t) holds the partition key, so it stays on the parent and
--   the compaction's `on conflict (scope, bucket_seconds, t)` is unchanged.
-- - recovery_items is partitioned by RANGE ("recovery_id"): a run's id begins with the millisecond it
--   was made in (lib/ids.ts), so a UTC week of runs is a range of ids, and all of a run's items are
--   in its week. The sweep drops a week once every run made in it has expired.
--
-- The upgrade touches only the catalog: each table is renamed <table>_default (its indexes likewise),
-- a partitioned table of the same columns, keys and indexes takes the old name, and the old table is
-- attached as its DEFAULT partition. The parent has no other partition at that moment, so PostgreSQL
-- has nothing to check, and the indexes and the foreign key are matched to the existing ones: nothing
-- is scanned, built or validated. Rows already there stay in the default partition, which the
-- batched retention (trim-rollup.ts, expire-recoveries.ts) empties.
--
-- attempt_stats_t_idx is built CONCURRENTLY after the transaction by 0016: an install coming from
-- before 0016 has none yet, and it is built here, on the default partition, inside the transaction
-- (a scan of attempt_stats; PostgreSQL cannot build an index CONCURRENTLY on a partitioned table).
-- 0016's statement then finds the index made and valid, and does nothing.

-- attempt_stats
ALTER TABLE "attempt_stats" RENAME TO "attempt_stats_default";
--> statement-breakpoint
ALTER INDEX "attempt_stats_scope_bucket_seconds_t_pk" RENAME TO "attempt_stats_default_pk";
--> statement-breakpoint
ALTER INDEX IF EXISTS "attempt_stats_t_idx" RENAME TO "attempt_stats_default_t_idx";
--> statement-breakpoint
CREATE TABLE "attempt_stats" (LIKE "attempt_stats_default" INCLUDING DEFAULTS INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY RANGE ("bucket_seconds", "t");
--> statement-breakpoint
ALTER TABLE "attempt_stats" ADD CONSTRAINT "attempt_stats_scope_bucket_seconds_t_pk" PRIMARY KEY ("scope","bucket_seconds","t");
--> statement-breakpoint
CREATE INDEX "attempt_stats_t_idx" ON "attempt_stats" USING btree ("bucket_seconds","t");
--> statement-breakpoint
ALTER TABLE "attempt_stats" ATTACH PARTITION "attempt_stats_default" DEFAULT;
--> statement-breakpoint
-- recovery_items
ALTER TABLE "recovery_items" RENAME TO "recovery_items_default";
--> statement-breakpoint
ALTER INDEX "recovery_items_recovery_id_seq_pk" RENAME TO "recovery_items_default_pk";
--> statement-breakpoint
ALTER INDEX "recovery_items_open_idx" RENAME TO "recovery_items_default_open_idx";
--> statement-breakpoint
ALTER INDEX "recovery_items_delivery_idx" RENAME TO "recovery_items_default_delivery_idx";
--> statement-breakpoint
ALTER INDEX "recovery_items_target_idx" RENAME TO "recovery_items_default_target_idx";
--> statement-breakpoint
CREATE TABLE "recovery_items" (LIKE "recovery_items_default" INCLUDING DEFAULTS INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY RANGE ("recovery_id");
--> statement-breakpoint
ALTER TABLE "recovery_items" ADD CONSTRAINT "recovery_items_recovery_id_seq_pk" PRIMARY KEY ("recovery_id","seq");
--> statement-breakpoint
ALTER TABLE "recovery_items" ADD CONSTRAINT "recovery_items_recovery_id_recoveries_id_fk" FOREIGN KEY ("recovery_id") REFERENCES "public"."recoveries"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "recovery_items_open_idx" ON "recovery_items" USING btree ("recovery_id","outcome","seq") WHERE "recovery_items"."outcome" in ('pending', 'queued');
--> statement-breakpoint
CREATE INDEX "recovery_items_delivery_idx" ON "recovery_items" USING btree ("recovery_id","delivery_id");
--> statement-breakpoint
CREATE INDEX "recovery_items_target_idx" ON "recovery_items" USING btree ("message_id","endpoint_id");
--> statement-breakpoint
ALTER TABLE "recovery_items" ATTACH PARTITION "recovery_items_default" DEFAULT;
