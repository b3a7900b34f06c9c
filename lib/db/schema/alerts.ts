import { index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, ts, updatedAt } from "./columns";
import { endpoints } from "./endpoints";

export const ALERT_CHANNEL_KINDS = ["slack", "teams", "chatwork", "email", "webhook"] as const;
export const ALERT_STATUSES = ["pending", "sent", "suppressed", "failed"] as const;

/** Where alerts go. Credentials live only in the encrypted config. */
export const alertChannels = pgTable(
  "alert_channels",
  {
    id: text("id").primaryKey(),
    kind: text("kind").$type<(typeof ALERT_CHANNEL_KINDS)[number]>().notNull(),
    name: text("name").notNull(),
    configCiphertext: text("config_ciphertext").notNull(),
    keyId: text("key_id").notNull(),
    /** The config with credentials masked: what the API shows. */
    configMasked: jsonb("config_masked").$type<Record<string, unknown>>().notNull(),
    /** null: every alert kind. */
    kinds: text("kinds").array(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("alert_channels_created_idx").on(t.createdAt.desc(), t.id.desc())],
);

/**
 * The alert log: one row per alert and target (a channel, or one consumer alert email), sent,
 * suppressed by the throttle, or failed. `pending` rows are being sent (or waiting for a retry)
 * and are not listed by the API.
 */
export const alerts = pgTable(
  "alerts",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    endpointId: text("endpoint_id"),
    consumerId: text("consumer_id"),
    channelId: text("channel_id"),
    recipient: text("recipient"),
    status: text("status").$type<(typeof ALERT_STATUSES)[number]>().notNull(),
    folded: integer("folded").notNull().default(0),
    /** The facts of the alert as the fan-out snapshotted them (lib/alerts/facts.ts AlertFacts). */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    error: text("error"),
    /** Sends tried so far (ALERT_RETRY_SCHEDULE bounds them). */
    attempts: integer("attempts").notNull().default(0),
    /** What was sent, as text: the request body, or an email's full plain text. */
    message: text("message"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("alerts_created_idx").on(t.createdAt.desc(), t.id.desc()),
    // GET /alerts filters by endpoint and/or kind and pages newest first.
    index("alerts_endpoint_idx").on(t.endpointId, t.createdAt.desc(), t.id.desc()),
    index("alerts_kind_idx").on(t.kind, t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * The throttle: one row per (endpoint, alert kind, target), where a target is a channel id or
 * `email:<address>` for a consumer's alert email. Rows are upserted by the fan-out
 * (lib/alerts/throttle.ts); the row lock of INSERT … ON CONFLICT DO UPDATE makes the decision
 * atomic across worker processes.
 */
export const alertThrottles = pgTable(
  "alert_throttles",
  {
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => endpoints.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    target: text("target").notNull(),
    /** When the last alert that went out (not suppressed) was decided. */
    lastSentAt: ts("last_sent_at").notNull(),
    lastAlertId: text("last_alert_id").notNull(),
    /** Suppressed since lastSentAt: folded into the next alert that goes out. */
    suppressed: integer("suppressed").notNull().default(0),
    /** What the last alert that went out folded in: the count, and the alert before it. */
    folded: integer("folded").notNull().default(0),
    foldedSince: ts("folded_since"),
  },
  (t) => [primaryKey({ columns: [t.endpointId, t.kind, t.target] }), index("alert_throttles_target_idx").on(t.target)],
);
