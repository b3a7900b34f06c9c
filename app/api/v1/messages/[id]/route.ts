import { getMessage } from "@/lib/messages";
import { json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { MESSAGE } from "@/lib/openapi/params";
import { MessageDetail } from "@/lib/messages/schemas";

export const GET = withApi(async ({ params, ctx }) => json(await getMessage(ctx, params.id!)), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "getMessage",
    summary: "Get a message",
    tag: "Messages",
    params: MESSAGE,
    success: { status: 200, description: "The message with its payload and deliveries.", schema: MessageDetail },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
