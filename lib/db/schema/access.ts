import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, ts } from "./columns";
import { consumers } from "./consumers";

/** API keys: only a SHA-256 of the key is kept; the key itself is shown once. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** The first characters of the key, so people can tell keys apart. */
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_key").on(t.hash)],
);

export const operators = pgTable(
  "operators",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("operators_email_key").on(t.email)],
);

/** One-time magic-link tokens into the portal; only their hash is kept. */
export const portalTokens = pgTable(
  "portal_tokens",
  {
    id: text("id").primaryKey(),
    consumerId: text("consumer_id")
      .notNull()
      .references(() => consumers.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    locale: text("locale"),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("portal_tokens_hash_key").on(t.tokenHash)],
);

export const portalSessions = pgTable(
  "portal_sessions",
  {
    id: text("id").primaryKey(),
    consumerId: text("consumer_id")
      .notNull()
      .references(() => consumers.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("portal_sessions_hash_key").on(t.tokenHash), index("portal_sessions_expires_idx").on(t.expiresAt)],
);
