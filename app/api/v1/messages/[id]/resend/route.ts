import { ResendInput, resendMessage } from "@/lib/messages";
import { json, parseBody } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { otherMethods } from "@/lib/http/methods";

export const POST = withApiKey(async ({ req, params, ctx }) => {
  const { endpoint_id } = await parseBody(req, ResendInput);
  return json(await resendMessage({ ctx, messageId: params.id!, endpointId: endpoint_id }), 202);
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
