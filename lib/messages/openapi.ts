import type { z } from "zod";
import { input, output, type Assert, type Item, type Same } from "../openapi/operation";

import type { createMessageBatch } from "./create-message-batch";
import type { getMessage, listMessages } from "./queries";
import type { resendMessage } from "./resend-message";
import {
  CreateMessageBatchInput,
  CreateMessageInput,
  MessageAccepted,
  MessageBatchResult,
  MessageDetail,
  MessageSummary,
  ResendInput,
  ResendQueued,
} from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/api-document/document.ts.
type _DocumentedAnswersMatch = [
  Assert<Same<z.infer<typeof MessageSummary>, Item<typeof listMessages>>>,
  Assert<Same<z.infer<typeof MessageDetail>, Awaited<ReturnType<typeof getMessage>>>>,
  Assert<Same<z.infer<typeof ResendQueued>, Awaited<ReturnType<typeof resendMessage>>>>,
  Assert<Same<z.infer<typeof MessageBatchResult>, Awaited<ReturnType<typeof createMessageBatch>>>>,
];

export const messageTag = { name: "Messages", description: "Events sent to a consumer, fanned out as one delivery per matching endpoint." } as const;

export const messageSchemas = {
  CreateMessageInput: input(CreateMessageInput),
  MessageAccepted: output(MessageAccepted),
  CreateMessageBatchInput: input(CreateMessageBatchInput),
  MessageBatchResult: output(MessageBatchResult),
  MessageSummary: output(MessageSummary),
  MessageDetail: output(MessageDetail),
  ResendInput: input(ResendInput),
  ResendQueued: output(ResendQueued),
};
