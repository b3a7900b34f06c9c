import { z } from "zod";
import {
  Alert,
  AlertChannel,
  AlertTestQueued,
  CreateAlertChannelInput,
  CreatedAlertChannel,
  ListAlertsQuery,
  UpdateAlertChannelInput,
} from "../alerts/schemas";
import type { createAlertChannel } from "../alerts/create-alert-channel";
import type { listAlertChannels, listAlerts } from "../alerts/queries";
import type { testAlertChannel } from "../alerts/test-alert-channel";
import type { updateAlertChannel } from "../alerts/update-alert-channel";
import { ListAttemptsQuery, MessageAttemptsQuery, type listAttempts } from "../attempts/queries";
import { Consumer, CreateConsumerInput, ListConsumersQuery, UpdateConsumerInput } from "../consumers/schemas";
import type { listConsumers } from "../consumers/queries";
import { ATTEMPT_TRIGGERS } from "../db/schema";
import { EndpointStatsQuery, type endpointStats } from "../endpoints/endpoint-stats";
import type { getEndpointSecret, rotateEndpointSecret } from "../endpoints/rotate-endpoint-secret";
import { CreateEndpointInput, Endpoint, EndpointSecret, EndpointStats, RotateSecretInput, UpdateEndpointInput } from "../endpoints/schemas";
import type { FieldError } from "../errors";
import { CreateEventTypeInput, EventType } from "../event-types/schemas";
import type { getMessage, listMessages } from "../messages/queries";
import type { resendMessage } from "../messages/resend-message";
import {
  CreateMessageInput,
  IdempotencyKey,
  ListMessagesQuery,
  MessageAccepted,
  MessageDetail,
  MessageSummary,
  ResendInput,
  ResendQueued,
} from "../messages/schemas";
import { PageQuery } from "../pagination";
import {
  CreateRecoveryInput,
  ListItemsQuery,
  ListRecoveriesQuery,
  Recovery,
  RecoveryDryRun,
  RecoveryItem,
  RetryFailedInput,
} from "../recoveries/schemas";
import type { getRecovery, listRecoveries, listRecoveryItems } from "../recoveries/queries";
import type { createRecovery, DryRun } from "../recoveries/create-recovery";
import type { retryFailedItems } from "../recoveries/retry-failed";
import { apiKeyOperations, apiKeySchemas, apiKeyTag } from "../api-keys/openapi";
import { operatorOperations, operatorSchemas, operatorTag } from "../operators/openapi";

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the zod schemas the routes parse with and
 * answer in: one table of operations below, one component per named schema. Request schemas are
 * converted as zod reads them (`io: "input"`), answers as they are produced (`io: "output"`).
 * tests/openapi.test.ts fails when a route file under app/api/v1 is missing from the table.
 */

// ---------------------------------------------------------------------------------------------
// Answer schemas with no zod schema of their own in lib/<domain>/schemas.ts.

export const Problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** An attempt as lib/attempts/queries.ts `toAttempt` shapes it. */
export const Attempt = z.object({
  id: z.string(),
  delivery_id: z.string(),
  message_id: z.string(),
  endpoint_id: z.string(),
  attempt_number: z.number(),
  trigger: z.enum(ATTEMPT_TRIGGERS),
  success: z.boolean(),
  status_code: z.number().nullable(),
  error: z.string().nullable(),
  error_detail: z.string().nullable(),
  response_body: z.string().nullable(),
  duration_ms: z.number(),
  request_headers: z.record(z.string(), z.string()),
  created_at: z.string(),
});

// The documented answers must be the ones the code produces: these fail to compile on drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type Item<F extends (...args: never[]) => Promise<{ data: unknown[] }>> = Awaited<ReturnType<F>>["data"][number];
type _DocumentedAnswersMatch = [
  Assert<Same<z.infer<typeof Attempt>, Item<typeof listAttempts>>>,
  Assert<Same<z.infer<typeof Consumer>, Item<typeof listConsumers>>>,
  Assert<Same<z.infer<typeof MessageSummary>, Item<typeof listMessages>>>,
  Assert<Same<z.infer<typeof MessageDetail>, Awaited<ReturnType<typeof getMessage>>>>,
  Assert<Same<z.infer<typeof ResendQueued>, Awaited<ReturnType<typeof resendMessage>>>>,
  Assert<Same<z.infer<typeof EndpointStats>, Awaited<ReturnType<typeof endpointStats>>>>,
  Assert<Same<z.infer<typeof EndpointSecret>, Awaited<ReturnType<typeof getEndpointSecret>>>>,
  Assert<Same<z.infer<typeof EndpointSecret>, Awaited<ReturnType<typeof rotateEndpointSecret>>>>,
  Assert<Same<NonNullable<z.infer<typeof Problem>["errors"]>[number], FieldError>>,
  Assert<Same<z.infer<typeof AlertChannel>, Item<typeof listAlertChannels>>>,
  Assert<Same<z.infer<typeof AlertChannel>, Awaited<ReturnType<typeof updateAlertChannel>>>>,
  Assert<Same<z.infer<typeof CreatedAlertChannel>, Awaited<ReturnType<typeof createAlertChannel>>>>,
  Assert<Same<z.infer<typeof AlertTestQueued>, Awaited<ReturnType<typeof testAlertChannel>>>>,
  Assert<Same<z.infer<typeof Alert>, Item<typeof listAlerts>>>,
  Assert<Same<z.infer<typeof Recovery>, Awaited<ReturnType<typeof getRecovery>>>>,
  Assert<Same<z.infer<typeof Recovery>, Item<typeof listRecoveries>>>,
  Assert<Same<z.infer<typeof Recovery>, Awaited<ReturnType<typeof retryFailedItems>>>>,
  Assert<Same<z.infer<typeof Recovery>, Extract<Awaited<ReturnType<typeof createRecovery>>, { recovery: unknown }>["recovery"]>>,
  Assert<Same<z.infer<typeof RecoveryDryRun>, DryRun>>,
  Assert<Same<z.infer<typeof RecoveryItem>, Item<typeof listRecoveryItems>>>,
];

// ---------------------------------------------------------------------------------------------
// Components: every named schema, converted once.

type Io = "input" | "output";
const input = (schema: z.ZodType) => ({ schema, io: "input" as Io });
const output = (schema: z.ZodType) => ({ schema, io: "output" as Io });

const SCHEMAS = {
  Problem: output(Problem),
  Consumer: output(Consumer),
  CreateConsumerInput: input(CreateConsumerInput),
  UpdateConsumerInput: input(UpdateConsumerInput),
  Endpoint: output(Endpoint),
  CreateEndpointInput: input(CreateEndpointInput),
  UpdateEndpointInput: input(UpdateEndpointInput),
  RotateSecretInput: input(RotateSecretInput),
  EndpointSecret: output(EndpointSecret),
  EndpointStats: output(EndpointStats),
  EventType: output(EventType),
  CreateEventTypeInput: input(CreateEventTypeInput),
  CreateMessageInput: input(CreateMessageInput),
  MessageAccepted: output(MessageAccepted),
  MessageSummary: output(MessageSummary),
  MessageDetail: output(MessageDetail),
  ResendInput: input(ResendInput),
  ResendQueued: output(ResendQueued),
  Attempt: output(Attempt),
  AlertChannel: output(AlertChannel),
  CreatedAlertChannel: output(CreatedAlertChannel),
  CreateAlertChannelInput: input(CreateAlertChannelInput),
  UpdateAlertChannelInput: input(UpdateAlertChannelInput),
  AlertTestQueued: output(AlertTestQueued),
  Alert: output(Alert),
  CreateRecoveryInput: input(CreateRecoveryInput),
  RetryFailedInput: input(RetryFailedInput),
  Recovery: output(Recovery),
  RecoveryDryRun: output(RecoveryDryRun),
  RecoveryItem: output(RecoveryItem),
  ...apiKeySchemas,
  ...operatorSchemas,
};
type SchemaName = keyof typeof SCHEMAS;

type JsonSchema = Record<string, unknown>;

function toJsonSchema(schema: z.ZodType, io: Io): JsonSchema {
  const json: JsonSchema = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    // Answers may gain fields (API.md): only request bodies refuse unknown properties.
    override: ({ jsonSchema }) => {
      if (io === "output" && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
    },
  });
  delete json.$schema;
  if ("$defs" in json) throw new Error("openapi: a schema produced $defs; inline it or give it a component");
  return json;
}

const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });

// ---------------------------------------------------------------------------------------------
// Operations.

type Method = "get" | "post" | "put" | "patch" | "delete";
type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 503;

export type Operation = {
  method: Method;
  /** OpenAPI form, relative to the server URL /api/v1: /consumers/{consumer}. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: (typeof TAGS)[number]["name"];
  /** Path parameter → its description; must name every {placeholder} of the path. */
  params?: Record<string, string>;
  query?: z.ZodType;
  headers?: { name: string; description: string; schema: z.ZodType; required?: boolean }[];
  body?: { schema: SchemaName; required?: boolean; description?: string };
  success: {
    status: number;
    description: string;
    schema?: SchemaName;
    /** `{data: [schema…], next_cursor}` */
    list?: boolean;
    headers?: Record<string, { description: string; schema: JsonSchema }>;
  };
  /** Other success answers of the same operation (a dry run's 200 beside the 202). */
  also?: { status: number; description: string; schema: SchemaName }[];
  /** Error answers beyond the ones inferred from params, query and body, or better descriptions of them. */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** No API key needed. */
  public?: boolean;
};

const TAGS = [
  { name: "Consumers", description: "Your customers: each owns endpoints and receives messages." },
  { name: "Endpoints", description: "Webhook URLs of a consumer, with their signing secrets and delivery state." },
  { name: "Event types", description: "The catalogue of event names messages may carry." },
  { name: "Messages", description: "Events sent to a consumer, fanned out as one delivery per matching endpoint." },
  { name: "Attempts", description: "Every HTTP try of a delivery." },
  {
    name: "Alerts",
    description: "Where alerts about failing, exhausted, disabled, recovered and enabled endpoints go, and the log of every alert sent, suppressed or failed.",
  },
  {
    name: "Recoveries",
    description:
      "Bulk resends over a frozen scope: a dry run first, a canary, a rate that ramps, pause, resume and cancel, and a report where expected = succeeded + failed + skipped.",
  },
  apiKeyTag,
  operatorTag,
  { name: "Meta", description: "This document." },
] as const;

const CONSUMER = { consumer: "The consumer's id (`con_…`) or its `uid`." };
const ENDPOINT = { id: "The endpoint's id (`ep_…`)." };
const MESSAGE = { id: "The message's id (`msg_…`)." };
const ALERT_CHANNEL = { id: "The alert channel's id (`ach_…`)." };
const RECOVERY = { id: "The recovery's id (`rec_…`)." };

const QUERY_DESCRIPTIONS: Record<string, string> = {
  limit: "Page size, 1–250.",
  cursor: "The `next_cursor` of the previous page.",
  q: "Search text matched against uid and name.",
  consumer: "Only this consumer's (id or uid).",
  endpoint_id: "Only this endpoint's.",
  event_type: "Only messages of this event type.",
  since: "ISO-8601 timestamp: created at or after.",
  kind: "Only alerts of this kind.",
  until: "ISO-8601 timestamp: created before.",
  state: "Only recoveries in this state.",
  outcome: "Only items with this outcome.",
  format: "`csv` answers every item at once as text/csv (streamed), ignoring limit and cursor.",
};

const OPERATIONS: Operation[] = [
  // Consumers
  {
    method: "post",
    path: "/consumers",
    operationId: "createConsumer",
    summary: "Create a consumer",
    tag: "Consumers",
    body: { schema: "CreateConsumerInput" },
    success: { status: 201, description: "The new consumer.", schema: "Consumer" },
    errors: { 409: "`uid_taken`: a consumer with this uid exists." },
  },
  {
    method: "get",
    path: "/consumers",
    operationId: "listConsumers",
    summary: "List consumers",
    tag: "Consumers",
    query: PageQuery.extend(ListConsumersQuery.shape),
    success: { status: 200, description: "A page of consumers, newest first.", schema: "Consumer", list: true },
  },
  {
    method: "get",
    path: "/consumers/{consumer}",
    operationId: "getConsumer",
    summary: "Get a consumer",
    tag: "Consumers",
    params: CONSUMER,
    success: { status: 200, description: "The consumer.", schema: "Consumer" },
  },
  {
    method: "patch",
    path: "/consumers/{consumer}",
    operationId: "updateConsumer",
    summary: "Update a consumer",
    tag: "Consumers",
    params: CONSUMER,
    body: { schema: "UpdateConsumerInput" },
    success: { status: 200, description: "The updated consumer.", schema: "Consumer" },
  },
  {
    method: "delete",
    path: "/consumers/{consumer}",
    operationId: "deleteConsumer",
    summary: "Delete a consumer",
    description: "Deletes the consumer with its endpoints, messages and deliveries.",
    tag: "Consumers",
    params: CONSUMER,
    success: { status: 204, description: "Deleted." },
  },

  // Endpoints
  {
    method: "post",
    path: "/consumers/{consumer}/endpoints",
    operationId: "createEndpoint",
    summary: "Create an endpoint",
    description: "Without `secret`, a `whsec_…` signing secret is generated; read it with GET /endpoints/{id}/secret.",
    tag: "Endpoints",
    params: CONSUMER,
    body: { schema: "CreateEndpointInput" },
    success: { status: 201, description: "The new endpoint.", schema: "Endpoint" },
    errors: { 422: "`validation_failed`, or `endpoint_url_forbidden` for a URL the SSRF rules refuse." },
  },
  {
    method: "get",
    path: "/consumers/{consumer}/endpoints",
    operationId: "listEndpoints",
    summary: "List a consumer's endpoints",
    tag: "Endpoints",
    params: CONSUMER,
    query: PageQuery,
    success: { status: 200, description: "A page of endpoints, newest first.", schema: "Endpoint", list: true },
  },
  {
    method: "get",
    path: "/endpoints/{id}",
    operationId: "getEndpoint",
    summary: "Get an endpoint",
    tag: "Endpoints",
    params: ENDPOINT,
    success: { status: 200, description: "The endpoint.", schema: "Endpoint" },
  },
  {
    method: "patch",
    path: "/endpoints/{id}",
    operationId: "updateEndpoint",
    summary: "Update an endpoint",
    tag: "Endpoints",
    params: ENDPOINT,
    body: { schema: "UpdateEndpointInput" },
    success: { status: 200, description: "The updated endpoint.", schema: "Endpoint" },
    errors: { 422: "`validation_failed`, or `endpoint_url_forbidden` for a URL the SSRF rules refuse." },
  },
  {
    method: "delete",
    path: "/endpoints/{id}",
    operationId: "deleteEndpoint",
    summary: "Delete an endpoint",
    tag: "Endpoints",
    params: ENDPOINT,
    success: { status: 204, description: "Deleted." },
  },
  {
    method: "post",
    path: "/endpoints/{id}/enable",
    operationId: "enableEndpoint",
    summary: "Enable an endpoint",
    description: "Also clears the failure streak and closes the circuit.",
    tag: "Endpoints",
    params: ENDPOINT,
    success: { status: 200, description: "The endpoint.", schema: "Endpoint" },
  },
  {
    method: "post",
    path: "/endpoints/{id}/disable",
    operationId: "disableEndpoint",
    summary: "Disable an endpoint",
    tag: "Endpoints",
    params: ENDPOINT,
    success: { status: 200, description: "The endpoint.", schema: "Endpoint" },
  },
  {
    method: "get",
    path: "/endpoints/{id}/secret",
    operationId: "getEndpointSecret",
    summary: "Get an endpoint's signing secret",
    tag: "Endpoints",
    params: ENDPOINT,
    success: { status: 200, description: "The current `whsec_…` secret.", schema: "EndpointSecret" },
  },
  {
    method: "post",
    path: "/endpoints/{id}/secret/rotate",
    operationId: "rotateEndpointSecret",
    summary: "Rotate an endpoint's signing secret",
    description: "The previous secret keeps signing beside the new one for the rotation overlap (24 h by default).",
    tag: "Endpoints",
    params: ENDPOINT,
    body: { schema: "RotateSecretInput", required: false, description: "Optional: without `key`, a secret is generated." },
    success: { status: 200, description: "The new current secret.", schema: "EndpointSecret" },
  },
  {
    method: "get",
    path: "/endpoints/{id}/stats",
    operationId: "getEndpointStats",
    summary: "Get an endpoint's attempt statistics",
    tag: "Endpoints",
    params: ENDPOINT,
    query: EndpointStatsQuery,
    success: { status: 200, description: "Counts and latency percentiles since `since` (default: the last 24 h).", schema: "EndpointStats" },
  },

  // Event types
  {
    method: "post",
    path: "/event-types",
    operationId: "createEventType",
    summary: "Create an event type",
    tag: "Event types",
    body: { schema: "CreateEventTypeInput" },
    success: { status: 201, description: "The new event type.", schema: "EventType" },
    errors: { 409: "`event_type_exists`: an event type of this name exists." },
  },
  {
    method: "get",
    path: "/event-types",
    operationId: "listEventTypes",
    summary: "List event types",
    tag: "Event types",
    query: PageQuery,
    success: { status: 200, description: "A page of event types, newest first.", schema: "EventType", list: true },
  },

  // Messages
  {
    method: "post",
    path: "/messages",
    operationId: "createMessage",
    summary: "Send a message",
    description:
      "Queues one delivery per endpoint of the consumer that subscribes to the event type. A repeated `Idempotency-Key` with the same body answers the first answer again.",
    tag: "Messages",
    headers: [
      {
        name: "Idempotency-Key",
        description: "Makes retries safe: a replay with the same body answers the same message.",
        schema: IdempotencyKey,
      },
    ],
    body: { schema: "CreateMessageInput" },
    success: {
      status: 202,
      description: "Accepted: the message and how many deliveries it made.",
      schema: "MessageAccepted",
      headers: {
        "Idempotent-Replayed": { description: "`true` when this answers a replayed Idempotency-Key.", schema: { type: "string", enum: ["true"] } },
      },
    },
    errors: {
      400: "`invalid_json`, or `validation_failed` for an invalid Idempotency-Key header.",
      404: "`not_found`: no such consumer.",
      409: "`idempotency_conflict`: the Idempotency-Key was used with a different body.",
      413: "`payload_too_large`: the payload is over the configured limit (1 MiB by default).",
    },
  },
  {
    method: "get",
    path: "/messages",
    operationId: "listMessages",
    summary: "List messages",
    tag: "Messages",
    query: PageQuery.extend(ListMessagesQuery.shape),
    success: { status: 200, description: "A page of messages, newest first, with each delivery's status.", schema: "MessageSummary", list: true },
    errors: { 404: "`not_found`: no such consumer." },
  },
  {
    method: "get",
    path: "/messages/{id}",
    operationId: "getMessage",
    summary: "Get a message",
    tag: "Messages",
    params: MESSAGE,
    success: { status: 200, description: "The message with its payload and deliveries.", schema: "MessageDetail" },
  },
  {
    method: "get",
    path: "/messages/{id}/attempts",
    operationId: "listMessageAttempts",
    summary: "List a message's attempts",
    tag: "Attempts",
    params: MESSAGE,
    query: PageQuery.extend(MessageAttemptsQuery.shape),
    success: { status: 200, description: "A page of attempts, newest first.", schema: "Attempt", list: true },
  },
  {
    method: "post",
    path: "/messages/{id}/resend",
    operationId: "resendMessage",
    summary: "Resend a message to an endpoint",
    description: "Queues a `manual` attempt to one of the consumer's endpoints, whatever the delivery's state; the worker makes it.",
    tag: "Messages",
    params: MESSAGE,
    body: { schema: "ResendInput" },
    success: { status: 202, description: "The attempt is queued.", schema: "ResendQueued" },
    errors: { 404: "`not_found`: no such message, or no such endpoint of its consumer." },
  },

  // Attempts
  {
    method: "get",
    path: "/attempts",
    operationId: "listAttempts",
    summary: "List attempts",
    tag: "Attempts",
    query: PageQuery.extend(ListAttemptsQuery.shape),
    success: { status: 200, description: "A page of attempts, newest first.", schema: "Attempt", list: true },
    errors: { 404: "`not_found`: no such consumer." },
  },

  // Recoveries
  {
    method: "post",
    path: "/endpoints/{id}/recover",
    operationId: "recoverEndpoint",
    summary: "Recover an endpoint's failed deliveries",
    description: "Freezes the scope into one item per delivery and starts the run (202). With `dry_run: true` it answers 200 with `RecoveryDryRun` — the exact count, per endpoint, and a sample — and writes nothing. Deliveries an active run holds are left out.",
    tag: "Recoveries",
    params: ENDPOINT,
    body: { schema: "CreateRecoveryInput" },
    success: { status: 202, description: "The run, planned.", schema: "Recovery" },
    also: [{ status: 200, description: "The dry run's count; nothing written.", schema: "RecoveryDryRun" }],
    errors: { 404: "`not_found`: no such endpoint.", 409: "`endpoint_not_active`: enable the endpoint first (a dry run still answers)." },
  },
  {
    method: "post",
    path: "/consumers/{consumer}/recover",
    operationId: "recoverConsumer",
    summary: "Recover a consumer's failed deliveries",
    description: "As for one endpoint, over every active endpoint of the consumer. Freezes the scope into one item per delivery and starts the run (202). With `dry_run: true` it answers 200 with `RecoveryDryRun` — the exact count, per endpoint, and a sample — and writes nothing. Deliveries an active run holds are left out.",
    tag: "Recoveries",
    params: CONSUMER,
    body: { schema: "CreateRecoveryInput" },
    success: { status: 202, description: "The run, planned.", schema: "Recovery" },
    also: [{ status: 200, description: "The dry run's count; nothing written.", schema: "RecoveryDryRun" }],
    errors: { 404: "`not_found`: no such consumer." },
  },
  {
    method: "get",
    path: "/recoveries",
    operationId: "listRecoveries",
    summary: "List recoveries",
    tag: "Recoveries",
    query: PageQuery.extend(ListRecoveriesQuery.shape),
    success: { status: 200, description: "A page of recoveries, newest first.", schema: "Recovery", list: true },
    errors: { 404: "`not_found`: no such consumer." },
  },
  {
    method: "get",
    path: "/recoveries/{id}",
    operationId: "getRecovery",
    summary: "Get a recovery and its counts",
    tag: "Recoveries",
    params: RECOVERY,
    success: { status: 200, description: "The recovery.", schema: "Recovery" },
  },
  {
    method: "get",
    path: "/recoveries/{id}/items",
    operationId: "listRecoveryItems",
    summary: "The reconciliation report",
    description: "Items in run order (oldest message first), each with its outcome. `format=csv` streams all of them as text/csv.",
    tag: "Recoveries",
    params: RECOVERY,
    query: PageQuery.extend(ListItemsQuery.shape),
    success: { status: 200, description: "A page of items, in run order.", schema: "RecoveryItem", list: true },
  },
  {
    method: "post",
    path: "/recoveries/{id}/pause",
    operationId: "pauseRecovery",
    summary: "Pause a recovery",
    tag: "Recoveries",
    params: RECOVERY,
    success: { status: 200, description: "The recovery, paused.", schema: "Recovery" },
    errors: { 409: "`invalid_state`: the recovery's state does not allow this move." },
  },
  {
    method: "post",
    path: "/recoveries/{id}/resume",
    operationId: "resumeRecovery",
    summary: "Resume a paused recovery",
    tag: "Recoveries",
    params: RECOVERY,
    success: { status: 200, description: "The recovery, resumed.", schema: "Recovery" },
    errors: { 409: "`invalid_state`: the recovery's state does not allow this move." },
  },
  {
    method: "post",
    path: "/recoveries/{id}/cancel",
    operationId: "cancelRecovery",
    summary: "Cancel a recovery",
    tag: "Recoveries",
    params: RECOVERY,
    success: { status: 200, description: "The recovery, canceled.", schema: "Recovery" },
    errors: { 409: "`invalid_state`: the recovery's state does not allow this move." },
  },
  {
    method: "post",
    path: "/recoveries/{id}/retry-failed",
    operationId: "retryFailedRecoveryItems",
    summary: "Start a new run over a recovery's failed items",
    tag: "Recoveries",
    params: RECOVERY,
    body: { schema: "RetryFailedInput", required: false },
    success: { status: 202, description: "The new run, planned.", schema: "Recovery" },
    errors: { 409: "`invalid_state`: the recovery is still active; it must be completed or canceled." },
  },

  // Alerts
  {
    method: "post",
    path: "/alert-channels",
    operationId: "createAlertChannel",
    summary: "Create an alert channel",
    description:
      "Slack, Teams, Chatwork, email or a signed webhook. The config is stored encrypted and answered masked from now on; " +
      "a webhook channel's `whsec_…` secret (generated unless given) is answered in `secret` this once.",
    tag: "Alerts",
    body: { schema: "CreateAlertChannelInput" },
    success: { status: 201, description: "The new channel, credentials masked.", schema: "CreatedAlertChannel" },
    errors: { 422: "`validation_failed` (bad config, unknown kind), or `endpoint_url_forbidden` for a URL the SSRF rules refuse." },
  },
  {
    method: "get",
    path: "/alert-channels",
    operationId: "listAlertChannels",
    summary: "List alert channels",
    tag: "Alerts",
    query: PageQuery,
    success: { status: 200, description: "A page of channels, newest first, credentials masked.", schema: "AlertChannel", list: true },
  },
  {
    method: "get",
    path: "/alert-channels/{id}",
    operationId: "getAlertChannel",
    summary: "Get an alert channel",
    tag: "Alerts",
    params: ALERT_CHANNEL,
    success: { status: 200, description: "The channel, credentials masked.", schema: "AlertChannel" },
  },
  {
    method: "patch",
    path: "/alert-channels/{id}",
    operationId: "updateAlertChannel",
    summary: "Update an alert channel",
    tag: "Alerts",
    params: ALERT_CHANNEL,
    body: { schema: "UpdateAlertChannelInput" },
    success: { status: 200, description: "The updated channel, credentials masked.", schema: "AlertChannel" },
    errors: { 422: "`validation_failed`, or `endpoint_url_forbidden` for a URL the SSRF rules refuse." },
  },
  {
    method: "delete",
    path: "/alert-channels/{id}",
    operationId: "deleteAlertChannel",
    summary: "Delete an alert channel",
    description: "Its alert log stays.",
    tag: "Alerts",
    params: ALERT_CHANNEL,
    success: { status: 204, description: "Deleted." },
  },
  {
    method: "post",
    path: "/alert-channels/{id}/test",
    operationId: "testAlertChannel",
    summary: "Send a test alert",
    description: "The worker sends an `alert.test` alert to this channel now, whatever its kinds and the throttle; the outcome appears in GET /alerts.",
    tag: "Alerts",
    params: ALERT_CHANNEL,
    success: { status: 202, description: "The test alert is queued.", schema: "AlertTestQueued" },
  },
  {
    method: "get",
    path: "/alerts",
    operationId: "listAlerts",
    summary: "List the alert log",
    description: "Every alert per channel or consumer alert email, once it was sent, suppressed by the throttle, or failed.",
    tag: "Alerts",
    query: PageQuery.extend(ListAlertsQuery.shape),
    success: { status: 200, description: "A page of alerts, newest first.", schema: "Alert", list: true },
  },

  // Meta
  {
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This OpenAPI document",
    tag: "Meta",
    public: true,
    success: { status: 200, description: "The OpenAPI 3.1 document of /api/v1." },
  },
  ...apiKeyOperations,
  ...operatorOperations,
];

// ---------------------------------------------------------------------------------------------
// Errors: shared answers, all application/problem+json with the Problem schema.

const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string; retryAfter?: boolean }> = {
  400: { name: "BadRequest", description: "`invalid_json`, or `validation_failed` for an invalid query string or cursor." },
  401: { name: "Unauthorized", description: "`unauthorized`: the API key is missing, unknown or revoked." },
  403: {
    name: "Forbidden",
    description: "`forbidden`: a viewer's dashboard session may not change anything; `origin_mismatch`: a change with a session cookie from another origin.",
  },
  404: { name: "NotFound", description: "`not_found`: no such resource." },
  409: { name: "Conflict", description: "A conflict; `code` says which." },
  413: { name: "PayloadTooLarge", description: "`payload_too_large`: the body is over the limit." },
  422: { name: "ValidationFailed", description: "`validation_failed`: the body is invalid; `errors` lists the fields." },
  429: { name: "RateLimited", description: "`rate_limited`: over this API key's request rate.", retryAfter: true },
  500: { name: "InternalError", description: "`internal_error`: quote the request id in `detail`." },
  503: { name: "ServiceUnavailable", description: "`service_unavailable`: the database is unreachable; retry shortly.", retryAfter: true },
};

const RETRY_AFTER = { "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } } };

function problemResponse(status: ErrorStatus, description = ERROR_RESPONSES[status].description) {
  return {
    description,
    ...(ERROR_RESPONSES[status].retryAfter ? { headers: RETRY_AFTER } : {}),
    content: { "application/problem+json": { schema: ref("Problem") } },
  };
}

function errorResponses(op: Operation) {
  const statuses = new Set<ErrorStatus>();
  if (op.query || op.body) statuses.add(400);
  if (!op.public) statuses.add(401);
  if (!op.public && op.method !== "get") statuses.add(403);
  if (op.params) statuses.add(404);
  if (op.body) statuses.add(413).add(422);
  if (!op.public) statuses.add(429).add(503);
  statuses.add(500);
  for (const status of Object.keys(op.errors ?? {})) statuses.add(Number(status) as ErrorStatus);
  const responses: Record<string, unknown> = {};
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const custom = op.errors?.[status];
    responses[String(status)] = custom ? problemResponse(status, custom) : { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };
  }
  return responses;
}

// ---------------------------------------------------------------------------------------------
// Assembly.

function pathParameters(op: Operation) {
  const placeholders = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const declared = Object.keys(op.params ?? {});
  if (placeholders.join() !== declared.join()) {
    throw new Error(`openapi: ${op.method} ${op.path} declares path params [${declared}] for [${placeholders}]`);
  }
  return placeholders.map((name) => ({
    name,
    in: "path",
    required: true,
    description: op.params![name],
    schema: { type: "string", minLength: 1 },
  }));
}

function queryParameters(query: z.ZodType | undefined) {
  if (!query) return [];
  const json = toJsonSchema(query, "input");
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(QUERY_DESCRIPTIONS[name] ? { description: QUERY_DESCRIPTIONS[name] } : {}),
    schema,
  }));
}

function successResponse(success: Operation["success"]) {
  const schema = success.schema
    ? success.list
      ? {
          type: "object",
          properties: {
            data: { type: "array", items: ref(success.schema) },
            next_cursor: { type: ["string", "null"], description: "Pass as `cursor` for the next page; null on the last page." },
          },
          required: ["data", "next_cursor"],
        }
      : ref(success.schema)
    : undefined;
  return {
    description: success.description,
    ...(success.headers ? { headers: success.headers } : {}),
    ...(schema ? { content: { "application/json": { schema } } } : success.status === 204 ? {} : { content: { "application/json": { schema: { type: "object" } } } }),
  };
}

function operationObject(op: Operation) {
  const parameters = [
    ...pathParameters(op),
    ...queryParameters(op.query),
    ...(op.headers ?? []).map((h) => ({
      name: h.name,
      in: "header",
      required: h.required ?? false,
      description: h.description,
      schema: toJsonSchema(h.schema, "input"),
    })),
  ];
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: op.public ? [] : [{ apiKey: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: op.body.required ?? true,
            ...(op.body.description ? { description: op.body.description } : {}),
            content: { "application/json": { schema: ref(op.body.schema) } },
          },
        }
      : {}),
    responses: {
      [String(op.success.status)]: successResponse(op.success),
      ...Object.fromEntries((op.also ?? []).map((other) => [String(other.status), successResponse(other)])),
      ...errorResponses(op),
    },
  };
}

export function buildOpenApiDocument(): object {
  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  for (const op of OPERATIONS) {
    if (ids.has(op.operationId)) throw new Error(`openapi: duplicate operationId ${op.operationId}`);
    ids.add(op.operationId);
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`openapi: ${op.method} ${op.path} is listed twice`);
    item[op.method] = operationObject(op);
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Webhook Admin API",
      version: "1",
      description:
        "Send webhooks to your consumers' endpoints. JSON in, JSON out; timestamps are ISO-8601 UTC strings. " +
        "Errors are `application/problem+json` with a stable snake_case `code`. " +
        "Lists take `limit` and `cursor` and answer `{data, next_cursor}`, newest first.",
    },
    servers: [{ url: "/api/v1" }],
    security: [{ apiKey: [] }],
    tags: TAGS.map((tag) => ({ ...tag })),
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key, `Authorization: Bearer sk_…`. Create one with `npm run cli -- api-key create --name NAME`. " +
            "Without one, the dashboard's session cookie is accepted too: its changes must come from APP_URL's origin, and a viewer's are refused (403).",
        },
      },
      schemas: Object.fromEntries(Object.entries(SCHEMAS).map(([name, { schema, io }]) => [name, toJsonSchema(schema, io)])),
      responses: Object.fromEntries(
        Object.keys(ERROR_RESPONSES).map((key) => {
          const status = Number(key) as ErrorStatus;
          return [ERROR_RESPONSES[status].name, problemResponse(status)];
        }),
      ),
    },
  };
}
