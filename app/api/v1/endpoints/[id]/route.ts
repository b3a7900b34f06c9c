import { UpdateEndpointInput, deleteEndpoint, getEndpoint, updateEndpoint } from "@/lib/endpoints";
import { ignoreBody, json, noContent, parseBody } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { otherMethods } from "@/lib/http/methods";

export const GET = withApiKey(async ({ params, ctx }) => json(await getEndpoint(ctx, params.id!)));

export const PATCH = withApiKey(async ({ req, params, ctx }) =>
  json(await updateEndpoint({ ctx, id: params.id!, input: await parseBody(req, UpdateEndpointInput) })),
);

export const DELETE = withApiKey(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  await deleteEndpoint({ ctx, id: params.id! });
  return noContent();
});

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
