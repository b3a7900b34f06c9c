import { bigint, index, integer, jsonb, pgTable, primaryKey, smallint, text, boolean, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { consumerId, createdAt, ts, updatedAt } from "./columns";
import { consumers } from "./consumers";
import { endpoints } from "./endpoints";

export const messages = pgTable(
  "messages",
  {
    id: text("id").primaryKey(),
    consumerId: text("consumer_id")
      .notNull()
      .references(() => consumers.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    eventId: text("event_id"),
    /** The exact bytes every attempt sends: serialized once at ingest. */
    payload: text("payload").notNull(),
    /** Sent by POST /endpoints/{id}/test: every attempt carries `webhook-test: true`. */
    isTest: boolean("is_test").notNull().default(false),
    /**
     * The ingest span's W3C traceparent while the web app traces (lib/telemetry), else null: the
     * worker's attempt spans link to it.
     */
    traceparent: text("traceparent"),
    /** An endpoint with channels gets only messages sharing one of them; one without gets every message. */
    channels: text("channels").array(),
    /** The caller's labels, for filtering lists. */
    tags: text("tags").array(),
    /** The endpoints whose payload filter refused this message at fan-out: no delivery for them. null: none. */
    filteredEndpointIds: text("filtered_endpoint_ids").array(),
    /** The version of its event type's schema it was checked against at ingest; null: not checked (enforcement off, no schema, a test send). */
    schemaVersion: integer("schema_version"),
    /** Where it broke that schema, accepted under `warn` enforcement; null: it did not (or was not checked). */
    schemaViolations: jsonb("schema_violations").$type<{ pointer: string; message: string }[]>(),
    /**
     * When the payload was expunged (DELETE /messages/{id}/payload): `payload` then holds '' and
     * nothing can send the message again. The message and its delivery log stay.
     */
    payloadExpungedAt: ts("payload_expunged_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("messages_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("messages_consumer_idx").on(t.consumerId, t.createdAt.desc(), t.id.desc()),
    index("messages_event_type_idx").on(t.eventType, t.createdAt.desc(), t.id.desc()),
    // A message is also named by its consumer's event id (the Svix API's `GET /msg/{eventId}`).
    index("messages_event_id_idx").on(t.consumerId, t.eventId).where(sql`${t.eventId} is not null`),
    // payload_contains (JSON containment). Over the payload as jsonb, or null where jsonb cannot
    // hold it (U+0000, a lone surrogate: valid JSON we deliver byte-exact). Messages are never
    // updated, so it costs only at ingest. The function is created by migration 0010.
    index("messages_payload_idx").using("gin", sql`webhook_admin_payload_jsonb(${t.payload}) jsonb_path_ops`),
  ],
);

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "canceled"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One message to one endpoint: its state and history. No column the worker changes on every
 * attempt is indexed, so those updates are HOT (no index writes); the queue itself is
 * delivery_queue.
 */
export const deliveries = pgTable(
  "deliveries",
  {
    id: text("id").primaryKey(),
    messageId: text("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => endpoints.id, { onDelete: "cascade" }),
    consumerId: text("consumer_id").notNull(),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    /** Every attempt, whatever its trigger. */
    attempts: integer("attempts").notNull().default(0),
    /** Scheduled attempts only: the position in DELIVERY_SCHEDULE. */
    scheduledAttempts: integer("scheduled_attempts").notNull().default(0),
    /**
     * When pending: when its next attempt is scheduled. It stays the time the delivery became due
     * while an attempt is in flight or it waits for a slot (the queue row tracks those).
     */
    nextAttemptAt: ts("next_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastAttemptAt: ts("last_attempt_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One delivery per message and endpoint: resends and recoveries that create one race on it.
    uniqueIndex("deliveries_message_endpoint_idx").on(t.messageId, t.endpointId),
    index("deliveries_endpoint_idx").on(t.endpointId, t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * Every delivery whose status is `failed`, kept by triggers on deliveries (migration 0011), listed
 * newest message first. A delivery fails only when its schedule is spent (27.6 h by default), so the
 * newest messages hold none and `status=failed` walking the message log read a day of messages
 * before its first row. An index on deliveries.status would make every status change non-HOT.
 */
export const failedDeliveries = pgTable(
  "failed_deliveries",
  {
    deliveryId: text("delivery_id")
      .primaryKey()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    messageId: text("message_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    consumerId: text("consumer_id").notNull(),
    /** The message's created_at, which orders the message log. */
    messageCreatedAt: ts("message_created_at").notNull(),
  },
  (t) => [
    index("failed_deliveries_created_idx").on(t.messageCreatedAt.desc(), t.messageId.desc()),
    index("failed_deliveries_consumer_idx").on(t.consumerId, t.messageCreatedAt.desc(), t.messageId.desc()),
    index("failed_deliveries_endpoint_idx").on(t.endpointId, t.messageCreatedAt.desc(), t.messageId.desc()),
  ],
);

/**
 * What a queue row is for, in the order the claim serves them: live scheduled attempts first, then
 * manual resends, then recovery items — also within one endpoint's slots, so a resend or a recovery
 * never takes a slot a live delivery waits for.
 */
export const QUEUE_KINDS = { scheduled: 0, manual: 1, recovery: 2 } as const;
export type QueueKind = (typeof QUEUE_KINDS)[keyof typeof QUEUE_KINDS];

/**
 * The durable delivery queue: every attempt that is to be made, whatever wants it, waits here and
 * leaves only through the one claim. A delivery has at most one row of each kind; a row is deleted
 * when its attempt's outcome is written (or, for scheduled work, when the delivery ends). Narrow and
 * apart from deliveries, because every attempt moves it (lease, outcome) and each move writes its
 * indexes.
 */
export const deliveryQueue = pgTable(
  "delivery_queue",
  {
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    kind: smallint("kind").$type<QueueKind>().notNull().default(QUEUE_KINDS.scheduled),
    endpointId: text("endpoint_id").notNull(),
    /** The delivery's (columns.ts consumerId): see the column's note there on why it may be null. */
    consumerId: consumerId(),
    /** Due time; while a worker holds it, the lease's end; while parked, the safety net's time. */
    nextAttemptAt: ts("next_attempt_at").notNull(),
    leaseToken: text("lease_token"),
    /**
     * Waiting for a concurrency slot of its endpoint: woken by the next outcome at that endpoint,
     * or by next_attempt_at as a safety net. Waiting is not an attempt.
     */
    parked: boolean("parked").notNull().default(false),
    /** The recovery run a recovery item belongs to. */
    recoveryId: text("recovery_id"),
    /**
     * On an ordered endpoint: the line it waits in (its ordering key's value; "" when the endpoint
     * is one line). Of a line's rows of one kind, only the first is ever due; the others are held
     * (next_attempt_at 'infinity') until it leaves the queue (lib/deliveries/lines.sql).
     */
    lineKey: text("line_key"),
    /** Its place in its line: from delivery_line_seq, taken under the line's lock. */
    lineSeq: bigint("line_seq", { mode: "number" }),
  },
  (t) => [
    primaryKey({ columns: [t.deliveryId, t.kind] }),
    index("delivery_queue_due_idx").on(t.kind, t.nextAttemptAt),
    // The claim's round robin over consumers (claim/scan-due.sql): the next consumer with work of
    // a kind, its earliest row, and its due rows in time order — each one descent.
    index("delivery_queue_consumer_due_idx").on(t.kind, t.consumerId, t.nextAttemptAt),
    // In-flight attempts per endpoint (the concurrency cap: leases not yet run out) and the slot
    // queue.
    index("delivery_queue_leased_idx").on(t.endpointId, t.nextAttemptAt).where(sql`${t.leaseToken} is not null`),
    index("delivery_queue_parked_idx").on(t.endpointId, t.kind, t.nextAttemptAt).where(sql`${t.parked}`),
    index("delivery_queue_recovery_idx").on(t.recoveryId).where(sql`${t.recoveryId} is not null`),
    // Every row of an endpoint: disabling, auto-disabling and deleting it lock and cancel them
    // while holding locks, which without this read the whole queue (a million queued rows: a
    // sequential scan under lock). Leases and reschedules already write the due index, so each
    // writes this one too; measured in docs/benchmarks.md#q-queue-by-endpoint.
    index("delivery_queue_endpoint_idx").on(t.endpointId),
    // A line's rows in order: its head, the next held row to release, the lines an endpoint has waiting.
    index("delivery_queue_line_idx").on(t.endpointId, t.lineKey, t.kind, t.lineSeq).where(sql`${t.lineKey} is not null`),
  ],
);

/**
 * Where the claim's round robin over consumers stands, per queue kind: the last consumer a claim
 * visited. The next claim starts after it (claim/scan-due.sql).
 */
export const claimRotation = pgTable("claim_rotation", {
  kind: smallint("kind").$type<QueueKind>().primaryKey(),
  afterConsumer: text("after_consumer"),
});

/** `polled`: a polling endpoint's message given by a poll past its committed position (lib/polling). */
export const ATTEMPT_TRIGGERS = ["scheduled", "manual", "recovery", "probe", "polled"] as const;
export type AttemptTrigger = (typeof ATTEMPT_TRIGGERS)[number];

/** One HTTP try. Written for every attempt; never updated. */
export const attempts = pgTable(
  "attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id").notNull(),
    messageId: text("message_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    consumerId: text("consumer_id").notNull(),
    attemptNumber: integer("attempt_number").notNull(),
    trigger: text("trigger").$type<AttemptTrigger>().notNull(),
    success: boolean("success").notNull(),
    statusCode: integer("status_code"),
    /** A stable kind: timeout, connection_refused, dns_error, forbidden_address… */
    error: text("error"),
    errorDetail: text("error_detail"),
    responseBody: text("response_body"),
    durationMs: integer("duration_ms").notNull(),
    /** The URL this attempt was sent to (the endpoint's at the time); null for attempts made before it was kept. */
    url: text("url"),
    requestHeaders: jsonb("request_headers").$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index("attempts_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("attempts_message_idx").on(t.messageId, t.createdAt.desc(), t.id.desc()),
    index("attempts_endpoint_idx").on(t.endpointId, t.createdAt.desc(), t.id.desc()),
    index("attempts_consumer_idx").on(t.consumerId, t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * Event ids a consumer's messages were created with where the caller asked them to be unique (the
 * Svix API): a second message with the same id within EVENT_ID_TTL is refused. Rows past it are swept.
 */
export const messageEventIds = pgTable(
  "message_event_ids",
  {
    consumerId: text("consumer_id")
      .notNull()
      .references(() => consumers.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    messageId: text("message_id").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.consumerId, t.eventId] }), index("message_event_ids_expires_idx").on(t.expiresAt)],
);

/**
 * The first 2xx answer to a POST of the Svix API with an `Idempotency-Key`, per credential and path:
 * a repeat gets it again, a concurrent repeat waits for it (state `pending` until then).
 */
export const apiIdempotency = pgTable(
  "api_idempotency",
  {
    /** sha256 of the credential, the path and the key. */
    keyHash: text("key_hash").primaryKey(),
    state: text("state").$type<"pending" | "done">().notNull().default("pending"),
    status: integer("status"),
    body: text("body"),
    /**
     * The message an answer is (POST /app/{app}/msg's, which holds its payload unless asked
     * without content): a payload expunge rewrites that answer's payload, an erasure deletes it.
     */
    messageId: text("message_id"),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [
    index("api_idempotency_expires_idx").on(t.expiresAt),
    index("api_idempotency_message_idx").on(t.messageId).where(sql`${t.messageId} is not null`),
  ],
);

/** The first answer to an Idempotency-Key, replayed for IDEMPOTENCY_TTL. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    key: text("key").primaryKey(),
    requestHash: text("request_hash").notNull(),
    messageId: text("message_id").notNull(),
    response: jsonb("response").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
