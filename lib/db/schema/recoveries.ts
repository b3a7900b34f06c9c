import { index, integer, jsonb, pgTable, text, boolean } from "drizzle-orm/pg-core";
import { createdAt, ts, updatedAt } from "./columns";

export const RECOVERY_STATES = ["pending", "running", "paused", "canceled", "completed"] as const;

/** A bulk resend of failed deliveries in a fixed scope, with its progress counts. */
export const recoveries = pgTable(
  "recoveries",
  {
    id: text("id").primaryKey(),
    consumerId: text("consumer_id").notNull(),
    endpointId: text("endpoint_id"),
    scope: jsonb("scope").$type<Record<string, unknown>>().notNull(),
    state: text("state").$type<(typeof RECOVERY_STATES)[number]>().notNull().default("pending"),
    ratePerSecond: integer("rate_per_second"),
    canary: boolean("canary").notNull().default(false),
    expected: integer("expected").notNull().default(0),
    queued: integer("queued").notNull().default(0),
    succeeded: integer("succeeded").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: ts("finished_at"),
  },
  (t) => [index("recoveries_consumer_idx").on(t.consumerId, t.createdAt.desc())],
);
