import { z } from "zod";
import { ERASURE_STATES } from "../db/schema";

/** Table → rows removed (by retention, or by an erasure; `audit_events_scrubbed` counts audit rows whose data was emptied). */
export const RowCounts = z.record(z.string(), z.number());

/** GET /erasures/{id}, and a 202 from DELETE /consumers/{consumer}: how far a consumer's erasure has gone. */
export const Erasure = z.object({
  id: z.string(),
  consumer_id: z.string(),
  /** `running`: the consumer is gone from every read and its rows are being erased; `completed`: nothing of it is left. */
  state: z.enum(ERASURE_STATES),
  /** Rows erased so far, per table. */
  counts: RowCounts,
  /** The consumer's messages when the erasure began, and how many are erased: the progress. */
  progress: z.object({ messages_total: z.number(), messages_erased: z.number() }),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});
export type Erasure = z.infer<typeof Erasure>;

/** One retention setting in force, as configured. */
export const RetentionSetting = z.object({
  key: z.string(),
  /** As written in the configuration's units (`30d`, `1m`), or the number. */
  value: z.string(),
  /** Durations in milliseconds; null for a count. */
  ms: z.number().nullable(),
});

/** One run of the periodic sweep. */
export const SweepRun = z.object({
  started_at: z.string(),
  finished_at: z.string(),
  duration_ms: z.number(),
  /** Rows removed by retention, per table (tables with none left out). */
  removed: RowCounts,
  /** The run's retention stopped at its time budget with more to remove: the next run goes on. */
  more: z.boolean(),
  /** Why the run stopped early, if it did. */
  error: z.string().nullable(),
});

/** GET /data-lifecycle: what the Data & retention page shows. */
export const DataLifecycle = z.object({
  settings: z.array(RetentionSetting),
  database: z.object({
    /** pg_database_size of the product's database. */
    bytes: z.number(),
    /** The ten largest tables with their indexes and TOAST (pg_total_relation_size), largest first. */
    /** `rows_estimate`: the planner's count as of the table's last ANALYZE; null before its first. */
    tables: z.array(z.object({ name: z.string(), bytes: z.number(), rows_estimate: z.number().nullable() })),
  }),
  /** The oldest message still kept; null when there is none. */
  oldest_message_at: z.string().nullable(),
  /** The last sweeps, newest first. */
  sweeps: z.array(SweepRun),
  /** Erasures running, and the last few completed, newest first. */
  erasures: z.array(Erasure),
});
export type DataLifecycle = z.infer<typeof DataLifecycle>;
