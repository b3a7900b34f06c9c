import { CreateEndpointInput, createEndpoint, listEndpoints } from "@/lib/endpoints";
import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";
import { CONSUMER } from "@/lib/openapi/params";
import { Endpoint } from "@/lib/endpoints/schemas";

export const POST = withApi(async ({ req, params, ctx }) =>
  json(await createEndpoint({ ctx, consumerRef: params.consumer!, input: await parseBody(req, CreateEndpointInput) }), 201), {
  portal: "manage_endpoints",
  role: "write",
  doc: {
    operationId: "createEndpoint",
    summary: "Create an endpoint",
    description: "Without `secret`, a `whsec_…` signing secret is generated; read it with GET /endpoints/{id}/secret.",
    tag: "Endpoints",
    params: CONSUMER,
    body: { schema: CreateEndpointInput },
    success: { status: 201, description: "The new endpoint.", schema: Endpoint },
    errors: {
      409: "`endpoint_limit`: a portal session's consumer already has `PORTAL_MAX_ENDPOINTS` endpoints.",
      422: "`validation_failed` (a portal session may not set `max_concurrency` above `ENDPOINT_MAX_CONCURRENCY`), `endpoint_url_forbidden` for a URL the SSRF rules refuse, or `invalid_filter` for a `filter` that breaks a rule (each fault in `errors` with its JSON `pointer`).",
    },
  },
});

export const GET = withApi(async ({ req, params, ctx }) =>
  json(await listEndpoints(ctx, params.consumer!, parseQuery(req, PageQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "listEndpoints",
    summary: "List a consumer's endpoints",
    tag: "Endpoints",
    params: CONSUMER,
    query: PageQuery,
    success: { status: 200, description: "A page of endpoints, newest first.", schema: Endpoint, list: true },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
