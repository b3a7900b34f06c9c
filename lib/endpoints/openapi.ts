import type { z } from "zod";
import { input, output, type Assert, type Operation, type Same } from "../openapi/operation";
import { PageQuery } from "../pagination";
import { EndpointStatsQuery, type endpointStats } from "./endpoint-stats";
import type { getEndpointSecret } from "./get-endpoint-secret";
import type { rotateEndpointSecret } from "./rotate-endpoint-secret";
import { SendTestInput, TestQueued } from "./send-test-message";
import { CreateEndpointInput, Endpoint, EndpointSecret, EndpointStats, RotateSecretInput, UpdateEndpointInput } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/openapi/document.ts.
type _DocumentedAnswersMatch = [
  Assert<Same<z.infer<typeof EndpointStats>, Awaited<ReturnType<typeof endpointStats>>>>,
  Assert<Same<z.infer<typeof EndpointSecret>, Awaited<ReturnType<typeof getEndpointSecret>>>>,
  Assert<Same<z.infer<typeof EndpointSecret>, Awaited<ReturnType<typeof rotateEndpointSecret>>>>,
];

export const endpointTag = { name: "Endpoints", description: "Webhook URLs of a consumer, with their signing secrets and delivery state." } as const;

export const endpointSchemas = {
  Endpoint: output(Endpoint),
  CreateEndpointInput: input(CreateEndpointInput),
  UpdateEndpointInput: input(UpdateEndpointInput),
  SendTestInput: input(SendTestInput),
  TestQueued: output(TestQueued),
  RotateSecretInput: input(RotateSecretInput),
  EndpointSecret: output(EndpointSecret),
  EndpointStats: output(EndpointStats),
};

const CONSUMER = { consumer: "The consumer's id (`con_…`) or its `uid`." };
const ENDPOINT = { id: "The endpoint's id (`ep_…`)." };

export const endpointOperations: Operation[] = [
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
    errors: {
      409: "`endpoint_limit`: a portal session's consumer already has `PORTAL_MAX_ENDPOINTS` endpoints.",
      422: "`validation_failed` (a portal session may not set `max_concurrency` above `ENDPOINT_MAX_CONCURRENCY`), or `endpoint_url_forbidden` for a URL the SSRF rules refuse.",
    },
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
    description: "API keys, admins, and portal sessions with `view_secrets`; a viewer is refused 403.",
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
  {
    method: "post",
    path: "/endpoints/{id}/test",
    operationId: "sendTestMessage",
    summary: "Send a test message to one endpoint",
    description:
      "A real message, in the log like any other, delivered through the queue to this endpoint only (whatever event types it filters on), signed like any other and marked with the header `webhook-test: true`. Without `payload`, the event type's `example`; without `event_type`, the endpoint's first event type or `webhook.test`. Each endpoint takes at most `ENDPOINT_TEST_SENDS_PER_MINUTE` (default 10) a minute; more are 429 with `Retry-After`.",
    tag: "Endpoints",
    params: ENDPOINT,
    body: { schema: "SendTestInput", required: false },
    success: { status: 202, description: "The message is queued; follow it with GET /messages/{id}/attempts.", schema: "TestQueued" },
    errors: { 409: "`invalid_state`: the endpoint is disabled." },
  },
];
