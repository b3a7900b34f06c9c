import { RotateSecretInput, rotateEndpointSecret } from "@/lib/endpoints";
import { json, parseOptionalBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { ENDPOINT } from "@/lib/openapi/params";
import { EndpointSecret } from "@/lib/endpoints/schemas";

export const POST = withApi(async ({ req, params, ctx }) => {
  const { key, grace_seconds } = await parseOptionalBody(req, RotateSecretInput);
  return json(await rotateEndpointSecret({ ctx, id: params.id!, key, graceSeconds: grace_seconds }), 200, { "cache-control": "no-store" });
}, {
  portal: "rotate_secrets",
  role: "write",
  doc: {
    operationId: "rotateEndpointSecret",
    summary: "Rotate an endpoint's signing secret",
    description: "The previous secret keeps signing beside the new one for `grace_seconds` (0–604800), by default the rotation overlap (24 h).",
    tag: "Endpoints",
    params: ENDPOINT,
    body: { schema: RotateSecretInput, required: false, description: "Optional: without `key`, a secret is generated." },
    success: { status: 200, description: "The new current secret.", schema: EndpointSecret },
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
