import { ResendInput, resendMessage } from "@/lib/messages";
import { json, parseBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { MESSAGE } from "@/lib/openapi/params";
import { ResendQueued } from "@/lib/messages/schemas";

export const POST = withApi(async ({ req, params, ctx }) => {
  const { endpoint_id } = await parseBody(req, ResendInput);
  return json(await resendMessage({ ctx, messageId: params.id!, endpointId: endpoint_id }), 202);
}, {
  portal: "resend",
  role: "write",
  doc: {
    operationId: "resendMessage",
    summary: "Resend a message to an endpoint",
    description: "Queues a `manual` attempt to one of the consumer's endpoints, whatever the delivery's state; the worker makes it.",
    tag: "Messages",
    params: MESSAGE,
    body: { schema: ResendInput },
    success: { status: 202, description: "The attempt is queued.", schema: ResendQueued },
    errors: { 404: "`not_found`: no such message, or no such endpoint of its consumer." },
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
