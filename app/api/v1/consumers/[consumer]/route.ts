import { UpdateConsumerInput, consumerView, deleteConsumer, findConsumer, updateConsumer } from "@/lib/consumers";
import { ignoreBody, json, noContent, parseBody } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { otherMethods } from "@/lib/http/methods";

export const GET = withApiKey(async ({ params, ctx }) => json(consumerView(ctx, await findConsumer(ctx, params.consumer!))));

export const PATCH = withApiKey(async ({ req, params, ctx }) =>
  json(await updateConsumer({ ctx, ref: params.consumer!, input: await parseBody(req, UpdateConsumerInput) })),
);

export const DELETE = withApiKey(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  await deleteConsumer({ ctx, ref: params.consumer! });
  return noContent();
});

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
