import { CreateEndpointInput, createEndpoint, listEndpoints } from "@/lib/endpoints";
import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";

export const POST = withApiKey(async ({ req, params, ctx }) =>
  json(await createEndpoint({ ctx, consumerRef: params.consumer!, input: await parseBody(req, CreateEndpointInput) }), 201),
);

export const GET = withApiKey(async ({ req, params, ctx }) =>
  json(await listEndpoints(ctx, params.consumer!, parseQuery(req, PageQuery))),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
