import { getEndpointSecret } from "@/lib/endpoints";
import { json } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { otherMethods } from "@/lib/http/methods";

export const GET = withApiKey(async ({ params, ctx }) =>
  json(await getEndpointSecret({ ctx, id: params.id! }), 200, { "cache-control": "no-store" }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
