import { json, noContent } from "@/lib/http/request";
import { SVIX_OPERATIONAL_ENDPOINT } from "@/lib/svix/openapi";
import {
  deleteOperationalWebhookEndpoint,
  getOperationalWebhookEndpoint,
  OperationalWebhookEndpointOut,
  OperationalWebhookEndpointUpsertIn,
  updateOperationalWebhookEndpoint,
} from "@/lib/svix/operational-webhooks";
import { parseSvixBody } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ params, ctx }) => json(await getOperationalWebhookEndpoint(ctx, params.endpoint_id!)), {
  portal: false,
  role: "read",
  doc: {
    operationId: "svixGetOperationalWebhookEndpoint",
    summary: "Get an operational webhook endpoint (Svix: operationalWebhookEndpoint.get)",
    params: SVIX_OPERATIONAL_ENDPOINT,
    success: { status: 200, description: "The endpoint.", schema: OperationalWebhookEndpointOut },
  },
});

export const PUT = svixRoute(
  async ({ req, params, ctx }) => json(await updateOperationalWebhookEndpoint(ctx, params.endpoint_id!, await parseSvixBody(req, OperationalWebhookEndpointUpsertIn))),
  {
    portal: false,
    role: "write",
    doc: {
      operationId: "svixUpdateOperationalWebhookEndpoint",
      summary: "Update an operational webhook endpoint (Svix: operationalWebhookEndpoint.update)",
      description: "Whole: `url`, `description` (the channel's name) and `eventTypes` (the alert kinds; none is all); its secret is kept. An unknown id is 404 (none is made).",
      params: SVIX_OPERATIONAL_ENDPOINT,
      body: { schema: OperationalWebhookEndpointUpsertIn },
      success: { status: 200, description: "The endpoint.", schema: OperationalWebhookEndpointOut },
    },
  },
);

export const DELETE = svixRoute(
  async ({ params, ctx }) => {
    await deleteOperationalWebhookEndpoint(ctx, params.endpoint_id!);
    return noContent();
  },
  {
    portal: false,
    role: "write",
    doc: {
      operationId: "svixDeleteOperationalWebhookEndpoint",
      summary: "Delete an operational webhook endpoint (Svix: operationalWebhookEndpoint.delete)",
      description: "Deletes the alert channel; its alert log stays.",
      params: SVIX_OPERATIONAL_ENDPOINT,
      success: { status: 204, description: "Deleted." },
    },
  },
);

export const { POST, PATCH, OPTIONS } = svixMethods({ GET, PUT, DELETE });
