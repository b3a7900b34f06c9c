import { getEndpointSecret } from "@/lib/endpoints";
import { json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { ENDPOINT } from "@/lib/openapi/params";
import { EndpointSecret } from "@/lib/endpoints/schemas";

export const GET = withApi(async ({ params, ctx }) =>
  json(await getEndpointSecret({ ctx, id: params.id! }), 200, { "cache-control": "no-store" }), {
  portal: "view_secrets",
  role: "admin",
  doc: {
    operationId: "getEndpointSecret",
    summary: "Get an endpoint's signing secret",
    description: "API keys, admins, and portal sessions with `view_secrets`; a viewer is refused 403.",
    tag: "Endpoints",
    params: ENDPOINT,
    success: { status: 200, description: "The current `whsec_…` secret.", schema: EndpointSecret },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
