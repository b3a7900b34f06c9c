import { json } from "@/lib/http/request";
import { getSvixEndpointSecret } from "@/lib/svix/endpoints";
import { SVIX_ENDPOINT, EndpointSecretOut } from "@/lib/svix/openapi";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ params, ctx }) => json(await getSvixEndpointSecret(ctx, params.app_id!, params.endpoint_id!)), {
  portal: "view_secrets",
  role: "admin",
  doc: {
    operationId: "svixGetEndpointSecret",
    summary: "Get an endpoint's signing secret (Svix: endpoint.getSecret)",
    params: SVIX_ENDPOINT,
    success: { status: 200, description: "`{key: \"whsec_…\"}`.", schema: EndpointSecretOut },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });
