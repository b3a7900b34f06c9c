import { otherMethods } from "@/lib/http/methods";
import { noContent } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { ENDPOINT } from "@/lib/openapi/params";
import { deletePollToken } from "@/lib/polling";

export const DELETE = withApi(async ({ params, ctx }) => {
  await deletePollToken({ ctx, id: params.id!, tokenId: params.token_id! });
  return noContent();
}, {
  // A token outlives the session that made it: making and revoking one is managing the endpoint.
  portal: "manage_endpoints",
  role: "write",
  doc: {
    operationId: "deletePollToken",
    summary: "Revoke a polling endpoint's token",
    description: "A poll with it answers 401 from then on.",
    tag: "Polling",
    params: { ...ENDPOINT, token_id: "The token's id (`plt_…`)." },
    success: { status: 204, description: "Revoked." },
    errors: { 409: "`not_polling`: the endpoint's kind is not `polling`." },
  },
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
