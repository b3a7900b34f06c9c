import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { consumerId, createdAt, ts, updatedAt } from "./columns";
import { consumers } from "./consumers";

export const RECOVERY_STATES = ["planned", "canary", "running", "paused", "completed", "canceled"] as const;
export type RecoveryState = (typeof RECOVERY_STATES)[number];
/** A run in one of these states still owns its items: a delivery in it is left out of new runs. */
export const ACTIVE_RECOVERY_STATES: readonly RecoveryState[] = ["planned", "canary", "running", "paused"];

export const RECOVERY_STOP_REASONS = ["canary_failed", "failure_ratio"] as const;
export const ITEM_OUTCOMES = ["pending", "queued", "succeeded", "failed", "skipped"] as const;
export type ItemOutcome = (typeof ITEM_OUTCOMES)[number];
export const SKIP_REASONS = ["already_succeeded", "endpoint_disabled", "endpoint_deleted", "payload_expired", "filtered"] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export type RecoveryScope = {
  since: string;
  until: string;
  event_types: string[] | null;
  statuses: string[];
  include_never_attempted: boolean;
  /** A run made by retry-failed: the run whose failed items it resends. */
  retry_of?: string;
};
export type RecoveryOptions = { rate_per_second: number; canary: number; stop_if_failure_ratio: number };
/** Where a run's selection stands: the last candidate frozen, in the scope's order. */
export type SelectionCursor = { created_at: string; message_id: string; endpoint_id: string };

/**
 * A bulk resend over a frozen set of items. The counters move in the same transactions as the
 * items they count (the feeder, the outcome writer, pause and cancel), so reading progress never
 * counts items; `recent` is the last 50 attempt results ('s'/'f', newest last) for the stop rule.
 */
export const recoveries = pgTable(
  "recoveries",
  {
    id: text("id").primaryKey(),
    consumerId: text("consumer_id")
      .notNull()
      .references(() => consumers.id, { onDelete: "cascade" }),
    /** The endpoint of POST /endpoints/{id}/recover; null for a consumer-wide run. */
    endpointId: text("endpoint_id"),
    state: text("state").$type<RecoveryState>().notNull().default("planned"),
    stopReason: text("stop_reason").$type<(typeof RECOVERY_STOP_REASONS)[number]>(),
    scope: jsonb("scope").$type<RecoveryScope>().notNull(),
    options: jsonb("options").$type<RecoveryOptions>().notNull(),
    expected: integer("expected").notNull().default(0),
    queued: integer("queued").notNull().default(0),
    succeeded: integer("succeeded").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    recent: text("recent").notNull().default(""),
    // The feeder's token bucket: items it may still queue, as of tokens_at.
    tokens: doublePrecision("tokens").notNull().default(0),
    tokensAt: ts("tokens_at"),
    /** Where the rate's ramp starts (the end of the canary, or a resume). */
    rampStartedAt: ts("ramp_started_at"),
    /**
     * The ramp's rate as of the feeder's last tick: the claim sends at most this many of the run's
     * items (rounded up) in any one second (recovery_sends). Null until the first tick.
     */
    currentRate: doublePrecision("current_rate"),
    /**
     * The worker freezes the scope's items in batches (lib/recoveries/select-items.ts): true until
     * it has, `select_after` the last one frozen (null before the first batch). Such a run stays
     * planned and is not fed.
     */
    selecting: boolean("selecting").notNull().default(false),
    selectAfter: jsonb("select_after").$type<SelectionCursor>(),
    /** The most items the run takes (RECOVERY_MAX_ITEMS when made); null for runs made before the cap. */
    itemLimit: integer("item_limit"),
    /** The scope held more than `item_limit` items: the newest were left out. */
    capped: boolean("capped").notNull().default(false),
    createdByType: text("created_by_type").$type<"api_key" | "operator" | "portal" | "system">().notNull(),
    createdById: text("created_by_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    index("recoveries_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("recoveries_consumer_idx").on(t.consumerId, t.createdAt.desc(), t.id.desc()),
    index("recoveries_active_idx").on(t.state).where(sql`${t.state} in ('planned', 'canary', 'running', 'paused')`),
  ],
);

/**
 * What the claim sent of a run lately, for its rate (lib/deliveries/claim-due-deliveries.sql): one
 * entry per claim that took some of the run's items, `sent_count[i]` of them at `sent_at[i]`, kept
 * for the second they count against the run's rate, and the bucket that spreads its sends through
 * the second. A row of its own, locked by claims alone: the run's own row is locked by every outcome
 * write, and a claim never waits.
 */
export const recoverySends = pgTable(
  "recovery_sends",
  {
    recoveryId: text("recovery_id")
      .primaryKey()
      .references(() => recoveries.id, { onDelete: "cascade" }),
    /** The run's (columns.ts consumerId): see the column's note there on why it may be null. */
    consumerId: consumerId(),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }).array().notNull().default(sql`'{}'`),
    sentCount: integer("sent_count").array().notNull().default(sql`'{}'`),
    /** The claim's bucket: whole items the run may send at once, as of tokens_at (null: full). */
    tokens: doublePrecision("tokens"),
    tokensAt: timestamp("tokens_at", { withTimezone: true, mode: "date" }),
  },
);

/**
 * One delivery of a run, frozen at creation, oldest message first (`seq`). A never-attempted
 * message has no delivery until its turn comes. Partitioned by RANGE (recovery_id), a UTC week of
 * runs each (a run's id begins with its millisecond), which the sweep makes ahead and drops once
 * every run in it has expired (migration 0020, ADR 0034; drizzle cannot say PARTITION BY).
 */
export const recoveryItems = pgTable(
  "recovery_items",
  {
    recoveryId: text("recovery_id")
      .notNull()
      .references(() => recoveries.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    messageId: text("message_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    deliveryId: text("delivery_id"),
    /** The run's (columns.ts consumerId): see the column's note there on why it may be null. */
    consumerId: consumerId(),
    outcome: text("outcome").$type<ItemOutcome>().notNull().default("pending"),
    skipReason: text("skip_reason").$type<SkipReason>(),
    attemptId: text("attempt_id"),
    statusCode: integer("status_code"),
    error: text("error"),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.recoveryId, t.seq] }),
    // The feeder takes the next pending items in order, and checks the queued ones.
    index("recovery_items_open_idx").on(t.recoveryId, t.outcome, t.seq).where(sql`${t.outcome} in ('pending', 'queued')`),
    // The outcome writer finds an item by its delivery.
    index("recovery_items_delivery_idx").on(t.recoveryId, t.deliveryId),
    // A new run leaves out what an active run already holds.
    index("recovery_items_target_idx").on(t.messageId, t.endpointId),
  ],
);
