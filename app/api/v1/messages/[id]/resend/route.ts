import { ResendInput, resendMessage } from "@/lib/messages";
import { json, parseBody } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";

export const POST = withApiKey(async ({ req, params, ctx }) => {
  const { endpoint_id } = await parseBody(req, ResendInput);
  return json(await resendMessage({ ctx, messageId: params.id!, endpointId: endpoint_id }), 202);
});
