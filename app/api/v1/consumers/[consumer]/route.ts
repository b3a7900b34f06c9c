import { UpdateConsumerInput, consumerView, findConsumer, updateConsumer } from "@/lib/consumers";
import { deleteConsumer } from "@/lib/retention/delete-consumer";
import { ignoreBody, json, noContent, parseBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { CONSUMER } from "@/lib/openapi/params";
import { Consumer } from "@/lib/consumers/schemas";
import { Erasure } from "@/lib/retention/schemas";

export const GET = withApi(async ({ params, ctx }) => json(consumerView(ctx, await findConsumer(ctx, params.consumer!))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "getConsumer",
    summary: "Get a consumer",
    tag: "Consumers",
    params: CONSUMER,
    success: { status: 200, description: "The consumer.", schema: Consumer },
  },
});

export const PATCH = withApi(async ({ req, params, ctx }) =>
  json(await updateConsumer({ ctx, ref: params.consumer!, input: await parseBody(req, UpdateConsumerInput) })), {
  portal: "manage_endpoints",
  role: "write",
  doc: {
    operationId: "updateConsumer",
    summary: "Update a consumer",
    tag: "Consumers",
    params: CONSUMER,
    body: { schema: UpdateConsumerInput },
    success: { status: 200, description: "The updated consumer.", schema: Consumer },
  },
});

export const DELETE = withApi(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  const { erasure, done } = await deleteConsumer({ ctx, ref: params.consumer! });
  return done ? noContent() : json(erasure, 202, { location: `/api/v1/erasures/${erasure.id}` });
}, {
  portal: false,
  role: "write",
  doc: {
    operationId: "deleteConsumer",
    summary: "Delete a consumer and erase its data",
    description:
      "The consumer is gone from every read at once (its routes answer 404, its uid is free again) and stops receiving; then everything of it is " +
      "erased: messages, deliveries, attempts (their request headers and response bodies), queue rows, recovery runs, rollup and alert log rows, " +
      "endpoints with their secrets, portal links and sessions, idempotency keys. The audit log keeps `consumer.created` and `consumer.deleted` with its id and uid; " +
      "the personal data other audit events held is emptied. A consumer with at most `ERASURE_INLINE_MESSAGES` (10,000) messages and no attempt in " +
      "flight is erased within the request (204); a larger one in the background (202, `Location: /api/v1/erasures/{id}`). Deleting it again by its " +
      "id while it is being erased answers the same erasure.",
    tag: "Consumers",
    params: CONSUMER,
    success: { status: 204, description: "Deleted and erased." },
    also: [{ status: 202, description: "Deleted; its erasure goes on in the background (GET /erasures/{id}, also in `Location`).", schema: Erasure }],
  },
});

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
