import { json } from "@/lib/http/request";
import { ListResponseOperationalWebhookEndpointOut } from "@/lib/svix/openapi";
import {
  createOperationalWebhookEndpoint,
  listOperationalWebhookEndpoints,
  OperationalWebhookEndpointIn,
  OperationalWebhookEndpointOut,
} from "@/lib/svix/operational-webhooks";
import { ListQuery, parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ req, ctx }) => json(await listOperationalWebhookEndpoints(ctx, parseSvixQuery(req, ListQuery))), {
  portal: false,
  role: "read",
  doc: {
    operationId: "svixListOperationalWebhookEndpoints",
    summary: "List operational webhook endpoints (Svix: operationalWebhookEndpoint.list)",
    description: "Our alert channels of kind `webhook`, newest first unless `order=ascending`.",
    query: ListQuery,
    success: { status: 200, description: "A page of operational webhook endpoints.", schema: ListResponseOperationalWebhookEndpointOut },
  },
});

export const POST = svixRoute(async ({ ctx, body }) => json(await createOperationalWebhookEndpoint(ctx, body), 201), {
  body: OperationalWebhookEndpointIn,
  portal: false,
  role: "write",
  doc: {
    operationId: "svixCreateOperationalWebhookEndpoint",
    summary: "Create an operational webhook endpoint (Svix: operationalWebhookEndpoint.create)",
    description:
      "An alert channel of kind `webhook` (POST /alert-channels): `description` its name, `eventTypes` the alert kinds it receives (all when none), `secret` its signing secret (generated when absent). " +
      "A uid, metadata, a throttle rate, custom headers or `disabled: true` are refused 422: a channel has none of them.",
    body: { schema: OperationalWebhookEndpointIn },
    success: { status: 201, description: "The new endpoint.", schema: OperationalWebhookEndpointOut },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET, POST });
