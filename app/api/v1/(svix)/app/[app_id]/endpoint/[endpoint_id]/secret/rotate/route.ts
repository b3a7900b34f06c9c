import { noContent } from "@/lib/http/request";
import { RotateIn, rotateSvixEndpointSecret } from "@/lib/svix/endpoints";
import { SVIX_ENDPOINT } from "@/lib/svix/openapi";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const POST = svixRoute(
  async ({ params, ctx, body }) => {
    await rotateSvixEndpointSecret(ctx, params.app_id!, params.endpoint_id!, body);
    return noContent();
  },
  {
    body: RotateIn,
    portal: "rotate_secrets",
    role: "write",
    doc: {
      operationId: "svixRotateEndpointSecret",
      summary: "Rotate an endpoint's signing secret (Svix: endpoint.rotateSecret)",
      description: "The old secret keeps signing beside the new one for `gracePeriodSeconds` (0–604800, default 86400).",
      params: SVIX_ENDPOINT,
      body: { schema: RotateIn, required: false },
      success: { status: 204, description: "Rotated." },
    },
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });
