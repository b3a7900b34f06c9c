import { getEndpointSecret } from "@/lib/endpoints";
import { json } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";

export const GET = withApiKey(async ({ params, ctx }) =>
  json(await getEndpointSecret({ ctx, id: params.id! }), 200, { "cache-control": "no-store" }),
);
