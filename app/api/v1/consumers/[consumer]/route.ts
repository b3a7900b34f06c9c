import { UpdateConsumerInput, consumerView, deleteConsumer, findConsumer, updateConsumer } from "@/lib/consumers";
import { ignoreBody, json, noContent, parseBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { CONSUMER } from "@/lib/openapi/params";

export const GET = withApi(async ({ params, ctx }) => json(consumerView(ctx, await findConsumer(ctx, params.consumer!))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "getConsumer",
    summary: "Get a consumer",
    tag: "Consumers",
    params: CONSUMER,
    success: { status: 200, description: "The consumer.", schema: "Consumer" },
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
    body: { schema: "UpdateConsumerInput" },
    success: { status: 200, description: "The updated consumer.", schema: "Consumer" },
  },
});

export const DELETE = withApi(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  await deleteConsumer({ ctx, ref: params.consumer! });
  return noContent();
}, {
  portal: false,
  role: "write",
  doc: {
    operationId: "deleteConsumer",
    summary: "Delete a consumer",
    description: "Deletes the consumer with its endpoints, messages and deliveries.",
    tag: "Consumers",
    params: CONSUMER,
    success: { status: 204, description: "Deleted." },
  },
});

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
