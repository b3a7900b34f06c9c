import { z } from "zod";
import { ATTEMPT_TRIGGERS } from "../db/schema";
import { output, type Assert, type Item, type Operation, type Same } from "../openapi/operation";
import { PageQuery } from "../pagination";
import { ListAttemptsQuery, MessageAttemptsQuery, type listAttempts } from "./queries";

/** An attempt as ./queries.ts `toAttempt` shapes it. */
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

// This domain's part of the OpenAPI document, assembled by lib/openapi/document.ts.
type _DocumentedAnswersMatch = [Assert<Same<z.infer<typeof Attempt>, Item<typeof listAttempts>>>];

export const attemptTag = { name: "Attempts", description: "Every HTTP try of a delivery." } as const;

export const attemptSchemas = { Attempt: output(Attempt) };

const MESSAGE = { id: "The message's id (`msg_…`)." };

export const attemptOperations: Operation[] = [
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
    method: "get",
    path: "/attempts",
    operationId: "listAttempts",
    summary: "List attempts",
    tag: "Attempts",
    query: PageQuery.extend(ListAttemptsQuery.shape),
    success: { status: 200, description: "A page of attempts, newest first.", schema: "Attempt", list: true },
    errors: { 404: "`not_found`: no such consumer." },
  },
];
