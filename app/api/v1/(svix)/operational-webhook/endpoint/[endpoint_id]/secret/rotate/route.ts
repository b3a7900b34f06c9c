import { noContent } from "@/lib/http/request";
import { SVIX_OPERATIONAL_ENDPOINT } from "@/lib/svix/openapi";
import { OperationalWebhookEndpointSecretIn, rotateOperationalWebhookEndpointSecret } from "@/lib/svix/operational-webhooks";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const POST = svixRoute(
  async ({ params, ctx, body }) => {
    await rotateOperationalWebhookEndpointSecret(ctx, params.endpoint_id!, body);
    return noContent();
  },
  {
    body: OperationalWebhookEndpointSecretIn,
    portal: false,
    role: "write",
    doc: {
      operationId: "svixRotateOperationalWebhookEndpointSecret",
      summary: "Rotate an operational webhook endpoint's secret (Svix: operationalWebhookEndpoint.rotateSecret)",
      description: "`key`, or a new generated one, replaces the channel's secret at once: a channel signs with one secret, so `gracePeriodSeconds` has nothing to keep.",
      params: SVIX_OPERATIONAL_ENDPOINT,
      body: { schema: OperationalWebhookEndpointSecretIn },
      success: { status: 204, description: "Rotated." },
    },
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });
