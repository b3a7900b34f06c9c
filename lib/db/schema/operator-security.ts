import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, pgTable, text } from "drizzle-orm/pg-core";
import { operators } from "./access";
import { createdAt, ts } from "./columns";

/**
 * One row per dashboard sign-in; its id rides in the session's JWT (`sid`). The JWT alone proves
 * the cookie is ours (the proxy's DB-free gate); the row is what can be ended — by signing out,
 * by "sign out everywhere else", or by an admin — and what the operator's list of sessions shows.
 * Ended and expired rows are removed by retention (lib/retention/expire-operator-sessions.ts).
 */
export const operatorSessions = pgTable(
  "operator_sessions",
  {
    id: text("id").primaryKey(),
    operatorId: text("operator_id")
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    /** Written at most once a minute per session, not on every request. */
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
    /** OPERATOR_SESSION_TTL after sign-in, as the cookie's own expiry. */
    expiresAt: ts("expires_at").notNull(),
    userAgent: text("user_agent"),
    /** The client's address as TRUST_PROXY reads it; null when it cannot be trusted. */
    address: text("address"),
    endedAt: ts("ended_at"),
  },
  (t) => [index("operator_sessions_operator_idx").on(t.operatorId, t.createdAt.desc()), index("operator_sessions_expires_idx").on(t.expiresAt)],
);

/**
 * An operator's TOTP factor (RFC 6238). The secret is sealed with ENCRYPTION_KEY like a signing
 * secret and never shown again once confirmed; `confirmed_at` null is an enrollment in progress,
 * which sign-in ignores. `last_step` is the time step of the last code accepted: a code of that
 * step or an earlier one is a replay. Recovery codes are kept as SHA-256 hashes (they are random,
 * 50 bits each) and removed as they are used.
 */
export const operatorTwoFactor = pgTable("operator_two_factor", {
  operatorId: text("operator_id")
    .primaryKey()
    .references(() => operators.id, { onDelete: "cascade" }),
  secretCiphertext: text("secret_ciphertext").notNull(),
  keyId: text("key_id").notNull(),
  confirmedAt: ts("confirmed_at"),
  lastStep: bigint("last_step", { mode: "number" }),
  recoveryCodeHashes: text("recovery_code_hashes").array().notNull().default(sql`'{}'::text[]`),
  createdAt: createdAt(),
});

/** The dashboard's own settings an admin changes on the settings screen: one row, made by the migration. */
export const dashboardSettings = pgTable(
  "dashboard_settings",
  {
    id: boolean("id").primaryKey().default(true),
    /** Every operator must have a second factor: one without it is sent to enroll and can do nothing else. */
    requireTwoFactor: boolean("require_two_factor").notNull().default(false),
  },
  (t) => [check("dashboard_settings_one_row", sql`${t.id}`)],
);
