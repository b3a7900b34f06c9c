import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { consumerId, createdAt, ts, updatedAt } from "./columns";
import { consumers } from "./consumers";

export const ENDPOINT_STATES = ["active", "disabled", "auto_disabled"] as const;
export type EndpointState = (typeof ENDPOINT_STATES)[number];
export const ENDPOINT_ORDERINGS = ["none", "ordered"] as const;
export type EndpointOrdering = (typeof ENDPOINT_ORDERINGS)[number];

export const endpoints = pgTable(
  "endpoints",
  {
    id: text("id").primaryKey(),
    consumerId: text("consumer_id")
      .notNull()
      .references(() => consumers.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** The caller's own name for it, unique within its consumer; the API takes it wherever it takes the id. */
    uid: text("uid"),
    description: text("description").notNull().default(""),
    /** The caller's own labels, string to string. */
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull().default({}),
    /** null: every message. Else only messages that carry one of these channels. */
    channels: text("channels").array(),
    /** The endpoint's id in the Svix deployment it was imported from (`ep_…`). */
    svixId: text("svix_id"),
    /** Also sign with `svix-id`/`svix-timestamp`/`svix-signature` (same values as the `webhook-*` set). */
    svixHeaders: boolean("svix_headers").notNull().default(false),
    /** null: every event type. */
    eventTypes: text("event_types").array(),
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    /** A payload filter (lib/filters), checked when written; null: every message its event types and channels let through. */
    filter: jsonb("filter").$type<Record<string, unknown>>(),
    /** Counts the filter's changes: ingest caches each endpoint's compiled filter by it (lib/messages/load-filters.ts). */
    filterVersion: integer("filter_version").notNull().default(0),
    /** `ordered`: messages of one line (same `ordering_key` value) are attempted one at a time, in creation order (lib/deliveries/lines.sql). */
    ordering: text("ordering").$type<EndpointOrdering>().notNull().default("none"),
    /** A dotted path into the payload whose value names a message's line; null: the endpoint is one line. */
    orderingKey: text("ordering_key"),
    /** Where its deliveries go: a kind of lib/destinations/ (its registry lists them). */
    destination: text("destination").notNull().default("http"),
    /**
     * What a destination of another kind than http stores, in its module's `target` schema. null for
     * http, whose target is url, headers and svix_headers: columns older than the other kinds.
     */
    target: jsonb("target"),
    /** null: ENDPOINT_MAX_CONCURRENCY. */
    maxConcurrency: integer("max_concurrency"),
    rateLimitPerSecond: integer("rate_limit_per_second"),
    state: text("state").$type<EndpointState>().notNull().default("active"),
    disabledReason: text("disabled_reason"),
    disabledAt: ts("disabled_at"),
    // Health: the failure streak and the circuit breaker live on the row so every worker sees them.
    failingSince: ts("failing_since"),
    /** When endpoint.failing was raised for the current streak; its first success then raises endpoint.recovered. */
    failingAlertedAt: ts("failing_alerted_at"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    lastSuccessAt: ts("last_success_at"),
    lastFailureAt: ts("last_failure_at"),
    /** Open circuit: no attempts until then. Set and not yet reached after a failed probe. */
    circuitOpenUntil: ts("circuit_open_until"),
    // rate_limit_per_second is enforced in one-second windows counted on the row, so it holds
    // across every worker process.
    rateWindowStart: ts("rate_window_start"),
    rateWindowCount: integer("rate_window_count").notNull().default(0),
    /**
     * Where the rows past the rate's budget are booked up to: each such row is parked until the
     * next free time from here, 1/rate apart, so a backlog is parked once and comes due at the rate
     * instead of all at the next second (claim/apply-limits.sql). null, or past: nothing booked.
     */
    rateBookedUntil: ts("rate_booked_until"),
    /**
     * A polling endpoint's committed position: the last message a poll returned past it (a poll
     * returning messages after it records them as polled and moves it on; lib/polling, ADR 0048).
     * null: never polled past the start.
     */
    pollPosition: text("poll_position"),
    /** When a polling endpoint was last polled (any token, any cursor): its health. */
    lastPolledAt: ts("last_polled_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("endpoints_consumer_idx").on(t.consumerId, t.createdAt.desc(), t.id.desc()),
    index("endpoints_failing_idx").on(t.failingSince).where(sql`${t.failingSince} is not null`),
    uniqueIndex("endpoints_consumer_uid_key").on(t.consumerId, t.uid).where(sql`${t.uid} is not null`),
    uniqueIndex("endpoints_svix_id_key").on(t.svixId).where(sql`${t.svixId} is not null`),
  ],
);

/**
 * Signing secrets, encrypted at rest. An endpoint signs with every row whose expires_at is null or
 * in the future: the current secret plus any rotated one still in its overlap window.
 */
export const endpointSecrets = pgTable(
  "endpoint_secrets",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => endpoints.id, { onDelete: "cascade" }),
    ciphertext: text("ciphertext").notNull(),
    keyId: text("key_id").notNull(),
    expiresAt: ts("expires_at"),
    /** The endpoint's (columns.ts consumerId): see the column's note there on why it may be null. */
    consumerId: consumerId(),
    createdAt: createdAt(),
  },
  (t) => [index("endpoint_secrets_endpoint_idx").on(t.endpointId, t.createdAt.desc())],
);

/**
 * The tokens a polling endpoint is read with (GET /endpoints/{id}/poll): each scoped to its one
 * endpoint, stored as a hash as API keys are, shown once, revoked by deletion.
 */
export const pollTokens = pgTable(
  "poll_tokens",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => endpoints.id, { onDelete: "cascade" }),
    /** The endpoint's (columns.ts consumerId). */
    consumerId: consumerId(),
    hash: text("hash").notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
  },
  (t) => [uniqueIndex("poll_tokens_hash_key").on(t.hash), index("poll_tokens_endpoint_idx").on(t.endpointId, t.createdAt)],
);

/**
 * The Svix poller's stored positions (`/app/{app}/poller/{sink}/consumer/{consumer_id}`): where
 * each named reader of a polling endpoint stands, as the last message id it was given.
 */
export const pollerConsumers = pgTable(
  "poller_consumers",
  {
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => endpoints.id, { onDelete: "cascade" }),
    /** The reader's name, as the Svix call gives it. */
    name: text("name").notNull(),
    /** The endpoint's (columns.ts consumerId). */
    consumerId: consumerId(),
    /** The last message id this reader was given, or the bound it was sought to (a `msg_` prefix and a time). */
    position: text("position").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.endpointId, t.name] })],
);
