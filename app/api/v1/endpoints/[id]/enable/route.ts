import { enableEndpoint } from "@/lib/endpoints";
import { ignoreBody, json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { ENDPOINT } from "@/lib/openapi/params";
import { Endpoint } from "@/lib/endpoints/schemas";

export const POST = withApi(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  return json(await enableEndpoint({ ctx, id: params.id! }));
}, {
  portal: "manage_endpoints",
  role: "write",
  doc: {
    operationId: "enableEndpoint",
    summary: "Enable an endpoint",
    description: "Also clears the failure streak and closes the circuit.",
    tag: "Endpoints",
    params: ENDPOINT,
    success: { status: 200, description: "The endpoint.", schema: Endpoint },
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
