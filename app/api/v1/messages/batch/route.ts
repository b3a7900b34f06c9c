import { getConfig } from "@/lib/config";
import { AppError, ValidationError, zodFieldErrors } from "@/lib/errors";
import { MessageBatchEnvelope, createMessageBatch } from "@/lib/messages";
import { json, readText } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { CreateMessageBatchInput, MessageBatchResult } from "@/lib/messages/schemas";

/** The call as a whole: past MAX_BATCH_BYTES 413 (the rest is never read); not JSON, or not 1–100 messages, 422. */
async function readEnvelope(req: Request) {
  const text = await readText(req, getConfig().MAX_BATCH_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError(422, "invalid_json", "Invalid JSON", "The request body is not valid JSON; send {\"messages\": [...]}.");
  }
  const parsed = MessageBatchEnvelope.safeParse(body);
  if (!parsed.success) throw new ValidationError("The request body must be {\"messages\": [...]} with 1 to 100 messages.", zodFieldErrors(parsed.error));
  return parsed.data;
}

export const POST = withApi(async ({ req, ctx }) => {
  const { messages } = await readEnvelope(req);
  return json(await createMessageBatch({ ctx, messages }));
}, {
  portal: false,
  role: "write",
  doc: {
    operationId: "createMessageBatch",
    summary: "Send up to 100 messages",
    description:
      "Each message as `POST /messages` takes it, with its own optional `idempotency_key` (the `Idempotency-Key` header's rules: " +
      "24 h, a replay answers the same message and sends nothing again). The valid ones are written in one transaction; " +
      "an invalid one fails alone and changes nothing. The answer has one result per message, in the order sent: " +
      "`{status: 202, message, replayed?}` or `{status: 404 | 409 | 413 | 422, error: {code, detail, errors?}}` " +
      "(`payload_invalid`, with each fault's JSON `pointer` into the payload, for an item its event type's schema rejects).",
    tag: "Messages",
    body: { schema: CreateMessageBatchInput },
    success: { status: 200, description: "One result per message, in request order.", schema: MessageBatchResult },
    errors: {
      400: "Not answered by this route: a body that is not JSON is `422 invalid_json` here, like every other problem with the call as a whole.",
      413: "`payload_too_large`: the body is over MAX_BATCH_BYTES (5 MiB by default). A payload over MAX_PAYLOAD_BYTES fails its item alone.",
      422: "`invalid_json`: the body is not JSON; `validation_failed`: no `messages` array, or fewer than 1 or more than 100 messages.",
    },
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
