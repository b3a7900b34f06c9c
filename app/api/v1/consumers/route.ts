import { CreateConsumerInput, ListConsumersQuery, createConsumer, listConsumers } from "@/lib/consumers";
import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";

export const POST = withApiKey(async ({ req, ctx }) =>
  json(await createConsumer({ ctx, input: await parseBody(req, CreateConsumerInput) }), 201),
);

export const GET = withApiKey(async ({ req, ctx }) =>
  json(await listConsumers(ctx, parseQuery(req, PageQuery.extend(ListConsumersQuery.shape)))),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
