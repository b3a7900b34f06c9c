import { getConfig } from "@/lib/config";
import { CreateMessageInput, IdempotencyKey, ListMessagesQuery, createMessage, listMessages } from "@/lib/messages";
import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { ValidationError } from "@/lib/errors";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";

export const POST = withApiKey(async ({ req, ctx }) => {
  const header = req.headers.get("idempotency-key");
  const key = header === null ? undefined : IdempotencyKey.safeParse(header);
  if (key && !key.success) {
    throw new ValidationError("The Idempotency-Key header is invalid.", [{ path: "Idempotency-Key", message: key.error.issues[0]!.message }], 400);
  }
  // The body may exceed the payload limit only by the envelope; the payload itself is measured after parsing.
  const input = await parseBody(req, CreateMessageInput, getConfig().MAX_PAYLOAD_BYTES + 64 * 1024);
  const result = await createMessage({ ctx, input, idempotencyKey: key?.data });
  return json(result.message, 202, result.replayed ? { "idempotent-replayed": "true" } : {});
});

export const GET = withApiKey(async ({ req, ctx }) =>
  json(await listMessages(ctx, parseQuery(req, PageQuery.extend(ListMessagesQuery.shape)))),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
