import { json } from "@/lib/http/request";
import { GetMessageQuery, getSvixMessage, MessageOut } from "@/lib/svix/messages";
import { SVIX_MESSAGE } from "@/lib/svix/openapi";
import { parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(
  async ({ req, params, ctx }) => json(await getSvixMessage(ctx, params.app_id!, params.msg_id!, parseSvixQuery(req, GetMessageQuery).with_content ?? true)),
  {
    portal: "scoped",
    role: "read",
    doc: {
      operationId: "svixGetMessage",
      summary: "Get a message (Svix: message.get)",
      description: "By id or eventId; `payload` is `{\"expired\": true}` once expunged.",
      params: SVIX_MESSAGE,
      query: GetMessageQuery,
      success: { status: 200, description: "The message.", schema: MessageOut },
    },
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });
