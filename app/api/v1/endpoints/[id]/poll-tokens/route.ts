import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { ENDPOINT } from "@/lib/openapi/params";
import { CreatedPollToken, createPollToken } from "@/lib/polling";

export const POST = withApi(async ({ params, ctx }) => json(await createPollToken({ ctx, id: params.id! }), 201, { "cache-control": "no-store" }), {
  // A token outlives the session that made it: making and revoking one is managing the endpoint.
  portal: "manage_endpoints",
  role: "write",
  doc: {
    operationId: "createPollToken",
    summary: "Make a token that reads a polling endpoint",
    description: "The token (`ept_…`) reads this endpoint's messages at `GET /endpoints/{id}/poll` and nothing else. It is shown this once and kept only as a hash; `DELETE /endpoints/{id}/poll-tokens/{token_id}` revokes it. A portal session with `manage_endpoints` makes them for its own consumer's endpoints.",
    tag: "Polling",
    params: ENDPOINT,
    success: { status: 201, description: "The token, shown once.", schema: CreatedPollToken },
    errors: { 409: "`not_polling`: the endpoint's kind is not `polling`." },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
