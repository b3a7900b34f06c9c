import { json } from "@/lib/http/request";
import { EndpointSecretOut, SVIX_OPERATIONAL_ENDPOINT } from "@/lib/svix/openapi";
import { getOperationalWebhookEndpointSecret } from "@/lib/svix/operational-webhooks";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ params, ctx }) => json(await getOperationalWebhookEndpointSecret(ctx, params.endpoint_id!)), {
  portal: false,
  role: "admin",
  doc: {
    operationId: "svixGetOperationalWebhookEndpointSecret",
    summary: "Get an operational webhook endpoint's signing secret (Svix: operationalWebhookEndpoint.getSecret)",
    description: "The alert channel's `whsec_…` secret (our own API shows it once, at creation). Needs the admin role.",
    params: SVIX_OPERATIONAL_ENDPOINT,
    success: { status: 200, description: "`{key}`.", schema: EndpointSecretOut },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });
