import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

export const ALERT_CHANNEL_KINDS = ["slack", "teams", "chatwork", "email", "webhook"] as const;

/** Where alerts go. Credentials live only in the encrypted config. */
export const alertChannels = pgTable("alert_channels", {
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
});

/** The alert log: every alert sent, suppressed by the throttle, or failed. */
export const alerts = pgTable(
  "alerts",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    endpointId: text("endpoint_id"),
    consumerId: text("consumer_id"),
    channelId: text("channel_id"),
    recipient: text("recipient"),
    status: text("status").$type<"pending" | "sent" | "suppressed" | "failed">().notNull(),
    folded: integer("folded").notNull().default(0),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [
    index("alerts_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("alerts_endpoint_idx").on(t.endpointId, t.kind, t.createdAt.desc()),
  ],
);
