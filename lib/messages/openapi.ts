import type { z } from "zod";
import { input, output, type Assert, type Item, type Operation, type Same } from "../openapi/operation";
import { PageQuery } from "../pagination";
import type { getMessage, listMessages } from "./queries";
import type { resendMessage } from "./resend-message";
import {
  CreateMessageInput,
  IdempotencyKey,
  ListMessagesQuery,
  MessageAccepted,
  MessageDetail,
  MessageSummary,
  ResendInput,
  ResendQueued,
} from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/openapi/document.ts.
type _DocumentedAnswersMatch = [
  Assert<Same<z.infer<typeof MessageSummary>, Item<typeof listMessages>>>,
  Assert<Same<z.infer<typeof MessageDetail>, Awaited<ReturnType<typeof getMessage>>>>,
  Assert<Same<z.infer<typeof ResendQueued>, Awaited<ReturnType<typeof resendMessage>>>>,
];

export const messageTag = { name: "Messages", description: "Events sent to a consumer, fanned out as one delivery per matching endpoint." } as const;

export const messageSchemas = {
  CreateMessageInput: input(CreateMessageInput),
  MessageAccepted: output(MessageAccepted),
  MessageSummary: output(MessageSummary),
  MessageDetail: output(MessageDetail),
  ResendInput: input(ResendInput),
  ResendQueued: output(ResendQueued),
};

const MESSAGE = { id: "The message's id (`msg_…`)." };

export const messageOperations: Operation[] = [
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
];
