import { json } from "@/lib/http/request";
import { MessageIn, ListMessagesQuery, createSvixMessage, listSvixMessages, GetMessageQuery, MessageOut } from "@/lib/svix/messages";
import { SVIX_APP, ListResponseMessageOut } from "@/lib/svix/openapi";
import { parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ req, params, ctx }) => json(await listSvixMessages(ctx, params.app_id!, parseSvixQuery(req, ListMessagesQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixListMessages",
    summary: "List messages (Svix: message.list)",
    description: "The application's messages, newest first.",
    params: SVIX_APP,
    query: ListMessagesQuery,
    success: { status: 200, description: "A page of messages.", schema: ListResponseMessageOut },
  },
});

export const POST = svixRoute(
  async ({ req, params, ctx, body }) => {
    const { with_content } = parseSvixQuery(req, GetMessageQuery);
    return json(await createSvixMessage(ctx, params.app_id!, body, with_content ?? true), 202);
  },
  {
    body: MessageIn,
    bodyLimit: (ctx) => ctx.config.MAX_PAYLOAD_BYTES + 64 * 1024,
    portal: false,
    role: "write",
    doc: {
      operationId: "svixCreateMessage",
      summary: "Send a message (Svix: message.create)",
      description:
        "Ingested as `POST /messages` is. An `eventId` the application used within EVENT_ID_TTL (24 h) is 409 `conflict`; " +
        "`application` makes the consumer when none has this id or uid. `payload` is answered only with `with_content=true`.",
      params: SVIX_APP,
      query: GetMessageQuery,
      body: { schema: MessageIn },
      success: { status: 202, description: "The message, accepted.", schema: MessageOut },
      errors: {
        409: "`conflict`: this eventId was used within EVENT_ID_TTL.",
        413: "`payload_too_large`.",
        422: "Svix's validation error; a payload its event type's schema rejects (`enforcement: reject`) has one `detail` entry per fault, `loc` `[\"body\", \"payload\", …]` down to it.",
      },
    },
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET, POST });
