import { getConfig } from "@/lib/config";
import { CreateMessageInput, IdempotencyKey, ListMessagesQuery, createMessage, listMessages } from "@/lib/messages";
import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { ValidationError } from "@/lib/errors";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";
import { offerLeanRoute } from "@/lib/http/lean-routes";
import { MessageAccepted, MessageSummary } from "@/lib/messages/schemas";

export const POST = withApi(async ({ req, ctx }) => {
  const header = req.headers.get("idempotency-key");
  const key = header === null ? undefined : IdempotencyKey.safeParse(header);
  if (key && !key.success) {
    throw new ValidationError("The Idempotency-Key header is invalid.", [{ path: "Idempotency-Key", message: key.error.issues[0]!.message }], 400);
  }
  // The body may exceed the payload limit only by the envelope; the payload itself is measured after parsing.
  const input = await parseBody(req, CreateMessageInput, getConfig().MAX_PAYLOAD_BYTES + 64 * 1024);
  const result = await createMessage({ ctx, input, idempotencyKey: key?.data });
  return json(result.message, 202, result.replayed ? { "idempotent-replayed": "true" } : {});
}, {
  portal: false,
  role: "write",
  doc: {
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
    body: { schema: CreateMessageInput },
    success: {
      status: 202,
      description: "Accepted: the message and how many deliveries it made.",
      schema: MessageAccepted,
      headers: {
        "Idempotent-Replayed": { description: "`true` when this answers a replayed Idempotency-Key.", schema: { type: "string", enum: ["true"] } },
      },
    },
    errors: {
      400: "`invalid_json`, or `validation_failed` for an invalid Idempotency-Key header.",
      404: "`not_found`: no such consumer.",
      409: "`idempotency_conflict`: the Idempotency-Key was used with a different body.",
      413: "`payload_too_large`: the payload is over the configured limit (1 MiB by default).",
      422: "`validation_failed`; `payload_invalid`: the event type's `enforcement` is `reject` and the payload does not match its schema — each fault in `errors` with its JSON `pointer` into the payload.",
    },
  },
});

// The hottest route: the web server calls this same handler without Next.js's routing (ADR 0035).
offerLeanRoute("POST", "/api/v1/messages", POST);

export const GET = withApi(async ({ req, ctx }) =>
  json(await listMessages(ctx, parseQuery(req, PageQuery.extend(ListMessagesQuery.shape)))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "listMessages",
    summary: "List messages",
    tag: "Messages",
    query: PageQuery.extend(ListMessagesQuery.shape),
    description: "`schema_invalid=true` lists the messages accepted under `warn` enforcement that broke their event type's schema (`schema_violations`).",
    success: { status: 200, description: "A page of messages, newest first, with each delivery's status.", schema: MessageSummary, list: true },
    errors: { 404: "`not_found`: no such consumer." },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
