import { RotateSecretInput, rotateEndpointSecret } from "@/lib/endpoints";
import { json, parseOptionalBody } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { otherMethods } from "@/lib/http/methods";

export const POST = withApiKey(async ({ req, params, ctx }) => {
  const { key } = await parseOptionalBody(req, RotateSecretInput);
  return json(await rotateEndpointSecret({ ctx, id: params.id!, key }), 200, { "cache-control": "no-store" });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
