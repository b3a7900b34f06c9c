import { sql } from "drizzle-orm";
import { bigserial, boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, ts } from "./columns";
import { consumers } from "./consumers";
import type { PortalPermission } from "./enums";

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
  (t) => [uniqueIndex("api_keys_hash_key").on(t.hash), index("api_keys_created_idx").on(t.createdAt.desc(), t.id.desc())],
);

export const OPERATOR_ROLES = ["admin", "viewer"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Dashboard logins. An admin changes things; a viewer only reads (enforced in lib/http). */
export const operators = pgTable(
  "operators",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    /** Null for an operator created by single sign-on: no password signs them in. */
    passwordHash: text("password_hash"),
    // Operators made before roles existed were all-powerful: they stay admins.
    role: text("role").$type<OperatorRole>().notNull().default("admin"),
    /**
     * The identity provider's account (OIDC `iss` and `sub`) this operator signed in as first;
     * later sign-ins match it before any email (lib/auth/oidc-sign-in.ts).
     */
    oidcIssuer: text("oidc_issuer"),
    oidcSubject: text("oidc_subject"),
    /** Set: no sign-in of any kind, and a session in hand ends at its next request. */
    disabledAt: ts("disabled_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("operators_email_key").on(t.email),
    index("operators_created_idx").on(t.createdAt.desc(), t.id.desc()),
    check("operators_role_check", sql`${t.role} in ('admin', 'viewer')`),
    uniqueIndex("operators_oidc_subject_key").on(t.oidcIssuer, t.oidcSubject),
    check("operators_oidc_subject_check", sql`(${t.oidcIssuer} is null) = (${t.oidcSubject} is null)`),
  ],
);

/**
 * Failed sign-ins, counted per email and per client address over a sliding window. Kept in
 * Postgres so the limit holds across every web process; old rows are pruned as new ones arrive.
 */
export const loginFailures = pgTable(
  "login_failures",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    email: text("email").notNull(),
    /** Null when the address cannot be trusted (no TRUST_PROXY). */
    address: text("address"),
    /** `password`: a password tried; `link`: a sign-in link asked for. Counted apart, so guessing passwords never stops the link. */
    kind: text("kind").$type<"password" | "link">().notNull().default("password"),
    createdAt: createdAt(),
  },
  (t) => [
    index("login_failures_email_idx").on(t.email, t.createdAt),
    index("login_failures_address_idx").on(t.address, t.createdAt),
    index("login_failures_created_idx").on(t.createdAt),
  ],
);

/**
 * One-time sign-in links mailed to operators (Auth.js's verification tokens, made only where
 * SMTP_URL is set). Only a hash of the token is kept; using it deletes the row.
 */
export const signInTokens = pgTable(
  "sign_in_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    email: text("email").notNull(),
    expiresAt: ts("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sign_in_tokens_expires_idx").on(t.expiresAt)],
);

export { PORTAL_CAPABILITIES, type PortalCapability, type PortalPermission } from "./enums";
export type PortalSessionSvix = "link" | "token";
export type PortalTheme = { name?: string; logo_url?: string; accent?: string; mode?: "light" | "dark" | "auto" };

/** One-time magic-link tokens into the portal; only their hash is kept. What the session will get rides with it. */
export const portalTokens = pgTable(
  "portal_tokens",
  {
    id: text("id").primaryKey(),
    consumerId: text("consumer_id")
      .notNull()
      .references(() => consumers.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    locale: text("locale"),
    capabilities: text("capabilities").array().$type<PortalPermission[]>().notNull().default(sql`'{}'::text[]`),
    theme: jsonb("theme").$type<PortalTheme>().notNull().default({}),
    sessionTtlSeconds: integer("session_ttl_seconds").notNull().default(43200),
    /** Made by the Svix API's appPortalAccess (its `url`): its session is ended by that app's expire-all. */
    svix: boolean("svix").notNull().default(false),
    /** Svix's `sessionId`, for expire-all's `sessionIds`. */
    svixSessionId: text("svix_session_id"),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("portal_tokens_hash_key").on(t.tokenHash), index("portal_tokens_consumer_idx").on(t.consumerId)],
);

/** A customer's session, minted from one token; revoking it deletes the row. A deleted consumer takes its sessions along. */
export const portalSessions = pgTable(
  "portal_sessions",
  {
    id: text("id").primaryKey(),
    consumerId: text("consumer_id")
      .notNull()
      .references(() => consumers.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    capabilities: text("capabilities").array().$type<PortalPermission[]>().notNull().default(sql`'{}'::text[]`),
    locale: text("locale"),
    theme: jsonb("theme").$type<PortalTheme>().notNull().default({}),
    /**
     * Null for a session from our own portal link; "link" for one opened by a Svix `url`; "token"
     * for the Svix API's bearer `token`, which only the Svix routes of its application take.
     */
    svix: text("svix").$type<PortalSessionSvix>(),
    /** Svix's `sessionId`, for expire-all's `sessionIds`. */
    svixSessionId: text("svix_session_id"),
    expiresAt: ts("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check("portal_sessions_svix_check", sql`${t.svix} in ('link', 'token')`),
    uniqueIndex("portal_sessions_hash_key").on(t.tokenHash),
    index("portal_sessions_expires_idx").on(t.expiresAt),
    index("portal_sessions_consumer_idx").on(t.consumerId),
  ],
);
