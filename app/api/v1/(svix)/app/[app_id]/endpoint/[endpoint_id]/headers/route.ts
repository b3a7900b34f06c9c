import { json, noContent } from "@/lib/http/request";
import { HeadersIn, HeadersPatchIn, getSvixEndpointHeaders, patchSvixEndpointHeaders, setSvixEndpointHeaders, EndpointHeadersOut } from "@/lib/svix/endpoints";
import { SVIX_ENDPOINT } from "@/lib/svix/openapi";
import { parseSvixBody } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ params, ctx }) => json(await getSvixEndpointHeaders(ctx, params.app_id!, params.endpoint_id!)), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixGetEndpointHeaders",
    summary: "Get an endpoint's custom headers (Svix: endpoint.getHeaders)",
    description: "Sensitive headers (authorization, x-api-key…) are named in `sensitive`, their values left out.",
    params: SVIX_ENDPOINT,
    success: { status: 200, description: "`{headers, sensitive}`.", schema: EndpointHeadersOut },
  },
});

export const PUT = svixRoute(
  async ({ req, params, ctx }) => {
    await setSvixEndpointHeaders(ctx, params.app_id!, params.endpoint_id!, (await parseSvixBody(req, HeadersIn)).headers);
    return noContent();
  },
  {
    portal: "manage_endpoints",
    role: "write",
    doc: {
      operationId: "svixSetEndpointHeaders",
      summary: "Replace an endpoint's custom headers (Svix: endpoint.updateHeaders, 2.x setHeaders)",
      params: SVIX_ENDPOINT,
      body: { schema: HeadersIn },
      success: { status: 204, description: "Replaced." },
    },
  },
);

export const PATCH = svixRoute(
  async ({ req, params, ctx }) => {
    await patchSvixEndpointHeaders(ctx, params.app_id!, params.endpoint_id!, await parseSvixBody(req, HeadersPatchIn));
    return noContent();
  },
  {
    portal: "manage_endpoints",
    role: "write",
    doc: {
      operationId: "svixPatchEndpointHeaders",
      summary: "Change some of an endpoint's custom headers (Svix: endpoint.patchHeaders)",
      description: "Merged; a `null` value or a name in `deleteHeaders` removes that header.",
      params: SVIX_ENDPOINT,
      body: { schema: HeadersPatchIn },
      success: { status: 204, description: "Changed." },
    },
  },
);

export const { POST, DELETE, OPTIONS } = svixMethods({ GET, PUT, PATCH });
