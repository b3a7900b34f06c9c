import { json } from "@/lib/http/request";
import { EndpointIn, createSvixEndpoint, listSvixEndpoints, EndpointOut } from "@/lib/svix/endpoints";
import { SVIX_APP, ListResponseEndpointOut } from "@/lib/svix/openapi";
import { ListQuery, parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ req, params, ctx }) => json(await listSvixEndpoints(ctx, params.app_id!, parseSvixQuery(req, ListQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixListEndpoints",
    summary: "List endpoints (Svix: endpoint.list)",
    description: "The application's endpoints, newest first unless `order=ascending`.",
    params: SVIX_APP,
    query: ListQuery,
    success: { status: 200, description: "A page of endpoints.", schema: ListResponseEndpointOut },
  },
});

export const POST = svixRoute(async ({ params, ctx, body }) => json(await createSvixEndpoint(ctx, params.app_id!, body), 201), {
  body: EndpointIn,
  portal: "manage_endpoints",
  role: "write",
  doc: {
    operationId: "svixCreateEndpoint",
    summary: "Create an endpoint (Svix: endpoint.create)",
    description: "Signs with the `svix-*` headers too. `secret` takes an imported `whsec_…` (or its bare base64); `filterTypes` (1.x) or `eventTypes` (2.x), `[]` for every event type.",
    params: SVIX_APP,
    body: { schema: EndpointIn },
    success: { status: 201, description: "The new endpoint.", schema: EndpointOut },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET, POST });
