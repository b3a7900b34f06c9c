import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { ts, updatedAt } from "./columns";

/**
 * What each run of the periodic sweep (lib/maintenance/sweep.ts) did: rows removed per table by
 * retention, how long it took, and an error if it stopped on one. The sweep keeps the last
 * SWEEP_RUNS_KEPT (lib/retention/record-sweep-run.ts); the dashboard's Data & retention page reads them.
 */
export const sweepRuns = pgTable(
  "sweep_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    startedAt: ts("started_at").notNull(),
    finishedAt: ts("finished_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    /** Table → rows removed by this run (tables with none are left out). */
    removed: jsonb("removed").$type<Record<string, number>>().notNull().default({}),
    /** True when retention stopped at its time budget with more to remove: the next run goes on. */
    more: boolean("more").notNull().default(false),
    error: text("error"),
  },
  (t) => [index("sweep_runs_started_idx").on(t.startedAt.desc())],
);

export const ERASURE_STATES = ["running", "completed"] as const;
export type ErasureState = (typeof ERASURE_STATES)[number];

/**
 * A consumer's erasure (DELETE /consumers/{consumer}): the record that it happened and how far it
 * has gone. It outlives the consumer and holds nothing of it but its id (the audit event keeps the
 * id and uid).
 */
export const erasures = pgTable(
  "erasures",
  {
    id: text("id").primaryKey(),
    consumerId: text("consumer_id").notNull(),
    state: text("state").$type<ErasureState>().notNull().default("running"),
    /** The consumer's messages when the erasure began: the whole its progress is measured against. */
    messagesTotal: integer("messages_total").notNull().default(0),
    /** Table → rows removed so far. */
    counts: jsonb("counts").$type<Record<string, number>>().notNull().default({}),
    /**
     * Every endpoint id the consumer had, its current ones and those named by its attempts and
     * alerts (an endpoint deleted earlier left them): their rollup rows and audit data go too.
     */
    endpointIds: text("endpoint_ids").array().notNull().default(sql`'{}'::text[]`),
    /**
     * What the erasure looks for in text it cannot find by id — the Svix API's stored idempotent
     * answers — the consumer's uid and Svix id while it runs; emptied when it completes.
     */
    terms: text("terms").array().notNull().default(sql`'{}'::text[]`),
    requestedByType: text("requested_by_type").$type<"api_key" | "operator" | "portal" | "system">().notNull(),
    requestedById: text("requested_by_id"),
    /**
     * An attempt already in flight when the erasure began may still write its outcome (its attempt
     * row, its rollup row) until then: the erasure does not finish before it.
     */
    settlesAt: ts("settles_at").notNull(),
    startedAt: ts("started_at").notNull().defaultNow(),
    updatedAt: updatedAt(),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    index("erasures_consumer_idx").on(t.consumerId),
    index("erasures_running_idx").on(t.startedAt).where(sql`${t.state} = 'running'`),
  ],
);
