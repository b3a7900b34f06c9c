import { CreateConsumerInput, ListConsumersQuery, createConsumer, listConsumers } from "@/lib/consumers";
import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";
import { Consumer } from "@/lib/consumers/schemas";

export const POST = withApi(async ({ req, ctx }) =>
  json(await createConsumer({ ctx, input: await parseBody(req, CreateConsumerInput) }), 201), {
  portal: false,
  role: "write",
  doc: {
    operationId: "createConsumer",
    summary: "Create a consumer",
    tag: "Consumers",
    body: { schema: CreateConsumerInput },
    success: { status: 201, description: "The new consumer.", schema: Consumer },
    errors: { 409: "`uid_taken`: a consumer with this uid exists." },
  },
});

export const GET = withApi(async ({ req, ctx }) =>
  json(await listConsumers(ctx, parseQuery(req, PageQuery.extend(ListConsumersQuery.shape)))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "listConsumers",
    summary: "List consumers",
    tag: "Consumers",
    query: PageQuery.extend(ListConsumersQuery.shape),
    success: { status: 200, description: "A page of consumers, newest first.", schema: Consumer, list: true },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
