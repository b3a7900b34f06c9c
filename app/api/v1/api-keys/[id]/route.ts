import { revokeApiKey } from "@/lib/api-keys";
import { ignoreBody, noContent } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { KEY } from "@/lib/openapi/params";

export const DELETE = withApi(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  await revokeApiKey({ ctx, input: { ref: params.id! } });
  return noContent();
}, {
  portal: false,
  role: "write",
  doc: {
    operationId: "revokeApiKey",
    summary: "Revoke an API key",
    description: "The key stops working at once, for every request after this one.",
    tag: "API keys",
    params: KEY,
    success: { status: 204, description: "Revoked." },
    errors: { 404: "`not_found`: no active key with this id." },
  },
});

export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
