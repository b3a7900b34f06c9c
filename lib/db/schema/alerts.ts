import { index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, ts, updatedAt } from "./columns";
import { endpoints } from "./endpoints";
import type { AlertChannelKind } from "./enums";

export { ALERT_CHANNEL_KINDS, type AlertChannelKind } from "./enums";
export const ALERT_STATUSES = ["pending", "sent", "suppressed", "failed"] as const;

/** Where alerts go. Credentials live only in the encrypted config. */
export const alertChannels = pgTable(
  "alert_channels",
  {
    id: text("id").primaryKey(),
    kind: text("kind").$type<AlertChannelKind>().notNull(),
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
 * The throttle: one row per (endpoint, target), across alert kinds, where a target is a channel id
 * or `email:<address>` for a consumer's alert email. The fan-out (lib/alerts/throttle.ts) locks
 * the rows it decides on, so the decision holds across worker processes.
 */
export const alertWindows = pgTable(
  "alert_windows",
  {
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => endpoints.id, { onDelete: "cascade" }),
    target: text("target").notNull(),
    /** When the alert holding the window was decided; null: no window is open, the next one goes. */
    windowAt: ts("window_at"),
    /** That alert: if its send ends `failed`, it gives the window back. */
    windowAlertId: text("window_alert_id"),
    /** Alerts the target did not get (suppressed, or failed) since `notSentSince`: the next one that goes out carries the count. */
    notSent: integer("not_sent").notNull().default(0),
    notSentSince: ts("not_sent_since"),
  },
  (t) => [primaryKey({ columns: [t.endpointId, t.target] }), index("alert_windows_target_idx").on(t.target)],
);
