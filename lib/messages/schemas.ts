import { z } from "zod";
import { ConsumerRef } from "../consumers/schemas";
import { EndpointRef, Name } from "../endpoints/schemas";
import { EventTypeName } from "../event-types/schemas";
import { DELIVERY_STATUSES } from "../db/schema";
import { IsoDate, Text } from "../schemas";

export const CreateMessageInput = z.strictObject({
  consumer: Text.min(1).max(256),
  event_type: EventTypeName,
  payload: z.record(z.string(), z.unknown()),
  event_id: Text.min(1).max(256).optional(),
  /** Only endpoints without channels, or with one of these, get it. */
  channels: z.array(Name.max(128)).min(1).max(10).optional(),
  /** Labels to find it by (GET /messages?tag=…). */
  tags: z.array(Name.max(128)).min(1).max(10).optional(),
});
export type CreateMessageInput = z.infer<typeof CreateMessageInput>;

export const IdempotencyKey = z.string().min(1).max(256).regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces");

/** Large enough for any hand-written search; small enough that a query string cannot carry a payload-sized document. */
export const MAX_PAYLOAD_CONTAINS_BYTES = 4096;

/**
 * `payload_contains`: a JSON object or array the payload must contain (Postgres `@>`). A scalar
 * would only ever match a payload equal to it, which POST /messages never accepts, so it is refused.
 */
export const PayloadContains = Text.max(MAX_PAYLOAD_CONTAINS_BYTES, `must be at most ${MAX_PAYLOAD_CONTAINS_BYTES} characters`)
  .transform((text, ctx) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be a JSON object or array" });
      return z.NEVER;
    }
    if (value === null || typeof value !== "object") {
      ctx.addIssue({ code: "custom", message: "must be a JSON object or array" });
      return z.NEVER;
    }
    // Re-serialised, so what reaches the database is JSON we produced, whatever bytes came in.
    return JSON.stringify(value);
  });

export const ListMessagesQuery = z.object({
  consumer: Text.max(256).optional(),
  event_type: EventTypeName.optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  endpoint_id: Text.max(64).optional(),
  since: IsoDate.optional(),
  until: IsoDate.optional(),
  payload_contains: PayloadContains.optional(),
  /** Messages carrying this channel. */
  channel: Name.max(128).optional(),
  /** Messages carrying this tag. */
  tag: Name.max(128).optional(),
  /** `true`: only messages accepted under `warn` enforcement that broke their event type's schema (`schema_violations`). */
  schema_invalid: z.enum(["true", "false"]).transform((v) => v === "true").optional(),
});
export type ListMessagesQuery = z.infer<typeof ListMessagesQuery>;

export const ResendInput = z.strictObject({ endpoint_id: Text.min(1).max(64) });

export const MessageAccepted = z.object({
  id: z.string(),
  consumer_id: z.string(),
  event_type: z.string(),
  event_id: z.string().nullable(),
  created_at: z.string(),
  deliveries: z.number(),
});
export type MessageAccepted = z.infer<typeof MessageAccepted>;

/** POST /messages/batch takes 1 to this many messages. */
export const MAX_BATCH_MESSAGES = 100;

/** One message of POST /messages/batch: POST /messages's body, with the Idempotency-Key as a field. */
export const BatchMessageInput = CreateMessageInput.extend({ idempotency_key: IdempotencyKey.optional() });
export type BatchMessageInput = z.infer<typeof BatchMessageInput>;

/** POST /messages/batch as documented: each item is validated on its own, so an invalid one fails alone. */
export const CreateMessageBatchInput = z.strictObject({ messages: z.array(BatchMessageInput).min(1).max(MAX_BATCH_MESSAGES) });

/** What the route reads before the items: a list of 1–100 of anything, each then checked by BatchMessageInput. */
export const MessageBatchEnvelope = z.strictObject({ messages: z.array(z.unknown()).min(1).max(MAX_BATCH_MESSAGES) });

/** One item's answer: accepted (as POST /messages answers it; `replayed` for a replayed key), or refused alone. */
export const MessageBatchItemResult = z.union([
  z.object({ status: z.literal(202), message: MessageAccepted, replayed: z.literal(true).optional() }),
  z.object({
    status: z.number().int(),
    error: z.object({
      code: z.string(),
      detail: z.string(),
      /** `pointer`: where in the field the fault is (`payload_invalid`: into the payload, "" for the whole). */
      errors: z.array(z.object({ path: z.string(), message: z.string(), pointer: z.string().optional() })).optional(),
    }),
  }),
]);
export type MessageBatchItemResult = z.infer<typeof MessageBatchItemResult>;

/** POST /messages/batch: one result per message, in the order they were sent. */
export const MessageBatchResult = z.object({ data: z.array(MessageBatchItemResult) });
export type MessageBatchResult = z.infer<typeof MessageBatchResult>;

export const DeliverySummary = z.object({
  id: z.string(),
  endpoint_id: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number(),
  next_attempt_at: z.string().nullable(),
  last_status_code: z.number().nullable(),
  last_error: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  /** The endpoint named (null only if it was deleted as this was read). */
  endpoint: EndpointRef.nullable(),
});
export type DeliverySummary = z.infer<typeof DeliverySummary>;

export type DeliveryRow = {
  id: string;
  endpointId: string;
  status: (typeof DELIVERY_STATUSES)[number];
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
};

export function toDeliverySummary(row: DeliveryRow, endpoint: EndpointRef | null): DeliverySummary {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    endpoint,
  };
}

/** A message as GET /messages lists it: its envelope and each of its deliveries' state. */
export const MessageSummary = z.object({
  id: z.string(),
  consumer_id: z.string(),
  event_type: z.string(),
  event_id: z.string().nullable(),
  channels: z.array(z.string()).nullable(),
  tags: z.array(z.string()).nullable(),
  created_at: z.string(),
  /** The version of its event type's schema it was checked against at ingest; null: not checked (enforcement off, no schema, a test send). */
  schema_version: z.number().int().nullable(),
  /** Where it broke that schema, accepted under `warn` enforcement (at most 20 faults, each with its JSON pointer into the payload); null: it did not. */
  schema_violations: z.array(z.object({ pointer: z.string(), message: z.string() })).nullable(),
  deliveries: z.array(DeliverySummary),
  /** The consumer named (null only if it was deleted as this was read). */
  consumer: ConsumerRef.nullable(),
});
export type MessageSummary = z.infer<typeof MessageSummary>;

/** GET /messages/{id}: the summary plus the payload as it was sent. */
export const MessageDetail = MessageSummary.extend({
  /** null once expunged. */
  payload: z.unknown(),
  /** When the payload was expunged (DELETE /messages/{id}/payload); null while it is kept. */
  payload_expunged_at: z.string().nullable(),
  /** The endpoints whose payload filter refused this message: it has no delivery there. */
  filtered: z.array(z.object({ endpoint_id: z.string(), endpoint: EndpointRef.nullable() })),
});
export type MessageDetail = z.infer<typeof MessageDetail>;

/** POST /messages/{id}/resend: the manual attempt the worker will make. */
export const ResendQueued = z.object({
  delivery_id: z.string(),
  message_id: z.string(),
  endpoint_id: z.string(),
  trigger: z.literal("manual"),
  status: z.literal("queued"),
  /** The endpoint is ordered: this attempt goes at once, outside its line (docs/delivery.md#ordered-delivery). */
  out_of_order: z.boolean(),
});
export type ResendQueued = z.infer<typeof ResendQueued>;
