import { json, noContent } from "@/lib/http/request";
import { SVIX_OPERATIONAL_ENDPOINT } from "@/lib/svix/openapi";
import {
  getOperationalWebhookEndpointHeaders,
  OperationalWebhookEndpointHeadersIn,
  OperationalWebhookEndpointHeadersOut,
  setOperationalWebhookEndpointHeaders,
} from "@/lib/svix/operational-webhooks";
import { parseSvixBody } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ params, ctx }) => json(await getOperationalWebhookEndpointHeaders(ctx, params.endpoint_id!)), {
  portal: false,
  role: "read",
  doc: {
    operationId: "svixGetOperationalWebhookEndpointHeaders",
    summary: "Get an operational webhook endpoint's headers (Svix: operationalWebhookEndpoint.getHeaders)",
    description: "Always none: an alert channel sends no custom headers.",
    params: SVIX_OPERATIONAL_ENDPOINT,
    success: { status: 200, description: "`{headers: {}, sensitive: []}`.", schema: OperationalWebhookEndpointHeadersOut },
  },
});

export const PUT = svixRoute(
  async ({ req, params, ctx }) => {
    await setOperationalWebhookEndpointHeaders(ctx, params.endpoint_id!, await parseSvixBody(req, OperationalWebhookEndpointHeadersIn));
    return noContent();
  },
  {
    portal: false,
    role: "write",
    doc: {
      operationId: "svixSetOperationalWebhookEndpointHeaders",
      summary: "Set an operational webhook endpoint's headers (Svix: operationalWebhookEndpoint.updateHeaders)",
      description: "Only `{headers: {}}`: an alert channel sends no custom headers (any is 422).",
      params: SVIX_OPERATIONAL_ENDPOINT,
      body: { schema: OperationalWebhookEndpointHeadersIn },
      success: { status: 204, description: "Set." },
    },
  },
);

export const { POST, PATCH, DELETE, OPTIONS } = svixMethods({ GET, PUT });
