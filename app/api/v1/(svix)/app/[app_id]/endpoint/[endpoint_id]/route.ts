import { json, noContent } from "@/lib/http/request";
import { EndpointPatch, EndpointUpdate, deleteSvixEndpoint, getSvixEndpoint, patchSvixEndpoint, upsertSvixEndpoint, EndpointOut } from "@/lib/svix/endpoints";
import { SVIX_ENDPOINT } from "@/lib/svix/openapi";
import { parseSvixBody } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ params, ctx }) => json(await getSvixEndpoint(ctx, params.app_id!, params.endpoint_id!)), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixGetEndpoint",
    summary: "Get an endpoint (Svix: endpoint.get)",
    params: SVIX_ENDPOINT,
    success: { status: 200, description: "The endpoint.", schema: EndpointOut },
  },
});

export const PUT = svixRoute(
  async ({ req, params, ctx }) => {
    const { created, endpoint } = await upsertSvixEndpoint(ctx, params.app_id!, params.endpoint_id!, await parseSvixBody(req, EndpointUpdate));
    return json(endpoint, created ? 201 : 200);
  },
  {
    portal: "manage_endpoints",
    role: "write",
    doc: {
      operationId: "svixUpsertEndpoint",
      summary: "Replace or create an endpoint (Svix: endpoint.update, 2.x upsert)",
      params: SVIX_ENDPOINT,
      body: { schema: EndpointUpdate },
      success: { status: 200, description: "The endpoint, replaced whole.", schema: EndpointOut },
      also: [{ status: 201, description: "None had this uid: made with it.", schema: EndpointOut }],
    },
  },
);

export const PATCH = svixRoute(async ({ req, params, ctx }) => json(await patchSvixEndpoint(ctx, params.app_id!, params.endpoint_id!, await parseSvixBody(req, EndpointPatch))), {
  portal: "manage_endpoints",
  role: "write",
  doc: {
    operationId: "svixPatchEndpoint",
    summary: "Update an endpoint (Svix: endpoint.patch)",
    description: "Changes the fields given; `null` unsets. `disabled: false` enables it as our enable does.",
    params: SVIX_ENDPOINT,
    body: { schema: EndpointPatch },
    success: { status: 200, description: "The endpoint.", schema: EndpointOut },
  },
});

export const DELETE = svixRoute(
  async ({ params, ctx }) => {
    await deleteSvixEndpoint(ctx, params.app_id!, params.endpoint_id!);
    return noContent();
  },
  {
    portal: "manage_endpoints",
    role: "write",
    doc: {
      operationId: "svixDeleteEndpoint",
      summary: "Delete an endpoint (Svix: endpoint.delete)",
      params: SVIX_ENDPOINT,
      success: { status: 204, description: "Deleted." },
    },
  },
);

export const { POST, OPTIONS } = svixMethods({ GET, PUT, PATCH, DELETE });
