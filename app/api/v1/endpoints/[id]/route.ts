import { UpdateEndpointInput, deleteEndpoint, getEndpoint, updateEndpoint } from "@/lib/endpoints";
import { ignoreBody, json, noContent, parseBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { ENDPOINT } from "@/lib/openapi/params";
import { Endpoint, UpdatedEndpoint } from "@/lib/endpoints/schemas";

export const GET = withApi(async ({ params, ctx }) => json(await getEndpoint(ctx, params.id!)), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "getEndpoint",
    summary: "Get an endpoint",
    tag: "Endpoints",
    params: ENDPOINT,
    success: { status: 200, description: "The endpoint.", schema: Endpoint },
  },
});

export const PATCH = withApi(async ({ req, params, ctx }) =>
  json(await updateEndpoint({ ctx, id: params.id!, input: await parseBody(req, UpdateEndpointInput) })), {
  portal: "manage_endpoints",
  role: "write",
  doc: {
    operationId: "updateEndpoint",
    summary: "Update an endpoint",
    tag: "Endpoints",
    params: ENDPOINT,
    body: { schema: UpdateEndpointInput },
    success: {
      status: 200,
      description: "The updated endpoint, with `headers_dropped`: custom headers whose stored values a re-point without `view_secrets` dropped.",
      schema: UpdatedEndpoint,
    },
    errors: { 422: "`validation_failed`, `endpoint_url_forbidden` for a URL the SSRF rules refuse, or `invalid_filter` for a `filter` that breaks a rule (each fault in `errors` with its JSON `pointer`)." },
  },
});

export const DELETE = withApi(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  await deleteEndpoint({ ctx, id: params.id! });
  return noContent();
}, {
  portal: "manage_endpoints",
  role: "write",
  doc: {
    operationId: "deleteEndpoint",
    summary: "Delete an endpoint",
    tag: "Endpoints",
    params: ENDPOINT,
    success: { status: 204, description: "Deleted." },
  },
});

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
