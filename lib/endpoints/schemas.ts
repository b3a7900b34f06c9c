import { z } from "zod";
import { ENDPOINT_ORDERINGS, type endpoints } from "../db/schema";
import { dottedPathProblem } from "../filters";
import { EventTypeName } from "../event-types/schemas";
import { customHeaderProblems, maskHeaderValues } from "../webhooks/headers";
import { ConsumerRef } from "../consumers/schemas";
import { Text } from "../schemas";
import { ENDPOINT_KINDS } from "../destinations";
import { showTarget } from "../destinations/broker";

const Headers = z.record(z.string(), z.string()).superRefine((headers, ctx) => {
  for (const problem of customHeaderProblems(headers)) {
    ctx.addIssue({ code: "custom", message: problem.message, path: problem.path.split(".").slice(1) });
  }
});

/** A caller's own name for a thing (an endpoint's uid, a channel): the characters Svix allows too. */
export const Name = z.string().min(1).max(256).regex(/^[a-zA-Z0-9\-_.:]+$/, "letters, digits, '-', '_', '.' and ':' only");

/** Labels, string to string: bounded, as every stored caller text. */
export const Labels = z
  .record(Text.max(256), Text.max(2000))
  .refine((labels) => Object.keys(labels).length <= 50, "at most 50 keys");

const fields = {
  /** Where an http endpoint delivers; a broker kind's URL is its target's. */
  url: Text.min(1).max(2048),
  /** Where its deliveries go: "http" (the default), a broker kind, or "polling": read by its consumer (docs/destinations.md). */
  kind: z.enum(ENDPOINT_KINDS),
  /**
   * A broker kind's target, checked by the kind's own schema (lib/endpoints/check-destination.ts):
   * amqp `{url, exchange, routing_key}`, redis_stream `{url, stream, max_len?}`; credentials in the
   * url are stored encrypted and shown masked.
   */
  target: z.record(z.string(), z.unknown()),
  // Not `ep_…`: ids and uids share the path, and an id must always mean the endpoint it names.
  uid: Name.refine((uid) => !uid.startsWith("ep_"), "must not start with ep_").nullable(),
  metadata: Labels,
  channels: z.array(Name.max(128)).min(1).max(10).nullable(),
  svix_headers: z.boolean(),
  description: Text.max(2000),
  event_types: z.array(EventTypeName).max(500).nullable(),
  headers: Headers,
  max_concurrency: z.number().int().min(1).max(1000).nullable(),
  // Far above what any receiver takes from one sender; a bound keeps the claim's arithmetic sane.
  rate_limit_per_second: z.number().int().min(1).max(10_000).nullable(),
  disabled: z.boolean(),
  // An object here; its operators, operands and bounds are checked by the verb (lib/filters), which
  // answers 422 invalid_filter with a JSON pointer to each fault.
  filter: z.record(z.string(), z.unknown()).nullable(),
  ordering: z.enum(ENDPOINT_ORDERINGS),
  ordering_key: z
    .string()
    .min(1)
    .superRefine((path, ctx) => {
      const problem = dottedPathProblem(path);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .nullable(),
};

export const CreateEndpointInput = z.strictObject({
  // Required for http (the default kind), refused for the others: checked with the kind, by the verb.
  url: fields.url.optional(),
  kind: fields.kind.optional(),
  target: fields.target.optional(),
  uid: fields.uid.optional(),
  metadata: fields.metadata.optional(),
  channels: fields.channels.optional(),
  svix_headers: fields.svix_headers.optional(),
  description: fields.description.optional(),
  event_types: fields.event_types.optional(),
  headers: fields.headers.optional(),
  max_concurrency: fields.max_concurrency.optional(),
  rate_limit_per_second: fields.rate_limit_per_second.optional(),
  disabled: fields.disabled.optional(),
  filter: fields.filter.optional(),
  ordering: fields.ordering.optional(),
  ordering_key: fields.ordering_key.optional(),
  secret: z.string().optional(),
});
export type CreateEndpointInput = z.infer<typeof CreateEndpointInput>;

export const UpdateEndpointInput = CreateEndpointInput.omit({ secret: true }).partial();
export type UpdateEndpointInput = z.infer<typeof UpdateEndpointInput>;

export const RotateSecretInput = z.strictObject({
  key: z.string().optional(),
  /** How long the previous secret keeps signing beside the new one; SECRET_ROTATION_OVERLAP when absent. */
  grace_seconds: z.number().int().min(0).max(604_800).optional(),
});

export const Endpoint = z.object({
  id: z.string(),
  consumer_id: z.string(),
  uid: z.string().nullable(),
  /** An http endpoint's URL; for a broker kind, where it delivers as the attempt log shows it (the password masked); "" for a polling endpoint. */
  url: z.string(),
  /** "http", "amqp", "redis_stream" or "polling". */
  kind: z.string(),
  /** A broker kind's target, its URL's password masked (never the credentials); null for http. */
  target: z.record(z.string(), z.unknown()).nullable(),
  description: z.string(),
  metadata: z.record(z.string(), z.string()),
  event_types: z.array(z.string()).nullable(),
  /** null: every message; else only messages carrying one of these channels. */
  channels: z.array(z.string()).nullable(),
  /** Signed with `svix-*` headers too. */
  svix_headers: z.boolean(),
  headers: z.record(z.string(), z.string()),
  max_concurrency: z.number(),
  rate_limit_per_second: z.number().nullable(),
  /** The payload filter: a message it refuses gets no delivery here (docs/delivery.md#payload-filters). null: none. */
  filter: z.record(z.string(), z.unknown()).nullable(),
  /** "ordered": messages with the same ordering key are attempted one at a time, in creation order (docs/delivery.md#ordered-delivery). */
  ordering: z.enum(ENDPOINT_ORDERINGS),
  /** A dotted path into the payload naming a message's line; null: the whole endpoint is one line. */
  ordering_key: z.string().nullable(),
  state: z.enum(["active", "disabled", "auto_disabled"]),
  disabled_reason: z.string().nullable(),
  failing_since: z.string().nullable(),
  /** The failure streak: attempts failed in a row since the last success. */
  consecutive_failures: z.number(),
  /** While in the future, the circuit is open: deliveries wait for it instead of hitting a failing receiver. */
  circuit_open_until: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Endpoint = z.infer<typeof Endpoint>;

/**
 * PATCH /endpoints/{id}'s answer: the endpoint, and the custom headers whose stored values the
 * update dropped (a re-point by a caller without `view_secrets`: see update-endpoint.ts).
 */
export const UpdatedEndpoint = Endpoint.extend({ headers_dropped: z.array(z.string()) });

/** An endpoint as another answer names it: its URL and description (empty when it has none), beside its id. */
export const EndpointRef = z.object({ id: z.string(), url: z.string(), description: z.string() });
export type EndpointRef = z.infer<typeof EndpointRef>;

/** GET /endpoints: an endpoint with the consumer it belongs to, named. */
export const EndpointWithConsumer = Endpoint.extend({ consumer: ConsumerRef.nullable() });
export type EndpointWithConsumer = z.infer<typeof EndpointWithConsumer>;

/** GET /endpoints: every consumer's endpoints (a portal session's own), searched by URL, description, or their consumer's name or uid. */
export const SearchEndpointsQuery = z.object({
  q: Text.max(200).optional(),
  consumer: Text.min(1).max(256).optional(),
});
export type SearchEndpointsQuery = z.infer<typeof SearchEndpointsQuery>;

/** `revealHeaders`: the reader may see custom header values (maySeeSecrets); else their names only. */
export function toEndpoint(row: typeof endpoints.$inferSelect, defaultConcurrency: number, revealHeaders: boolean): Endpoint {
  return {
    id: row.id,
    consumer_id: row.consumerId,
    uid: row.uid,
    url: row.url,
    kind: row.destination,
    target: row.target ? showTarget(row.target as Record<string, unknown>) : null,
    description: row.description,
    metadata: row.metadata,
    event_types: row.eventTypes,
    channels: row.channels,
    svix_headers: row.svixHeaders,
    headers: revealHeaders ? row.headers : maskHeaderValues(row.headers),
    max_concurrency: row.maxConcurrency ?? defaultConcurrency,
    rate_limit_per_second: row.rateLimitPerSecond,
    filter: row.filter,
    ordering: row.ordering,
    ordering_key: row.orderingKey,
    state: row.state,
    disabled_reason: row.disabledReason,
    failing_since: row.failingSince?.toISOString() ?? null,
    consecutive_failures: row.consecutiveFailures,
    circuit_open_until: row.circuitOpenUntil?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** GET /endpoints/{id}/secret and POST /endpoints/{id}/secret/rotate. */
export const EndpointSecret = z.object({ key: z.string() });
export type EndpointSecret = z.infer<typeof EndpointSecret>;

/** GET /endpoints/{id}/stats: attempts since `since`; rates and percentiles are null without attempts. */
export const EndpointStats = z.object({
  since: z.string(),
  attempts: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  success_rate: z.number().nullable(),
  p50_ms: z.number().nullable(),
  p99_ms: z.number().nullable(),
  /** A polling endpoint's messages given by polls past its committed position (all of its attempts; p50/p99 are how long they waited to be read); 0 for other kinds. */
  polled: z.number(),
});
export type EndpointStats = z.infer<typeof EndpointStats>;

/** POST /endpoints/{id}/filter/test: a filter to try, as an endpoint's `filter` takes it (null: none). */
export const TestFilterInput = z.strictObject({ filter: fields.filter });
export type TestFilterInput = z.infer<typeof TestFilterInput>;

/** Each of the endpoint's last messages, newest first, and whether the filter tried would let it through. */
export const FilterTestResult = z.object({
  results: z.array(z.object({ message_id: z.string(), event_type: z.string(), created_at: z.string(), delivered: z.boolean() })),
});
export type FilterTestResult = z.infer<typeof FilterTestResult>;

/** GET /endpoints/{id}/lines: an ordered endpoint's lines that have messages waiting, most first. */
export const EndpointLines = z.object({
  ordering: z.enum(ENDPOINT_ORDERINGS),
  /** Lines with messages waiting behind their head, and the messages waiting in all of them. */
  lines_waiting: z.number(),
  messages_waiting: z.number(),
  /** More rows were queued than were counted (LINES_COUNTED): the figures are at least these. */
  capped: z.boolean(),
  lines: z.array(
    z.object({
      /** The ordering key's value ("" for messages without one, or on an endpoint without a key). */
      key: z.string(),
      waiting: z.number(),
      /** The message that holds the line: attempted (or being attempted) while the others wait. */
      head: z.object({
        message_id: z.string(),
        delivery_id: z.string(),
        attempts: z.number(),
        last_status_code: z.number().nullable(),
        last_error: z.string().nullable(),
        /** Its next attempt (its retry, its lease's end, its wait for a slot or the circuit). */
        next_attempt_at: z.string(),
      }),
    }),
  ),
});
export type EndpointLines = z.infer<typeof EndpointLines>;

/** POST /endpoints/{id}/test: an event type (else the endpoint's first, else webhook.test) and a payload. */
export const SendTestInput = z.strictObject({
  event_type: EventTypeName.optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
});
export type SendTestInput = z.infer<typeof SendTestInput>;

export const TestQueued = z.object({ message_id: z.string() });
export type TestQueued = z.infer<typeof TestQueued>;

/** The dashboard overview's three figures (endpointHealthCounts), given to its screen by the page. */
export type EndpointHealthCounts = { failing: number; circuit_open: number; auto_disabled: number };
