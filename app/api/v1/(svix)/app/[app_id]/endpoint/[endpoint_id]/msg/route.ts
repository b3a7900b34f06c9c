import { json } from "@/lib/http/request";
import { ListAttemptedMessagesQuery, listAttemptedMessages } from "@/lib/svix/messages";
import { SVIX_ENDPOINT, ListResponseEndpointMessageOut } from "@/lib/svix/openapi";
import { parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(
  async ({ req, params, ctx }) => json(await listAttemptedMessages(ctx, params.app_id!, params.endpoint_id!, parseSvixQuery(req, ListAttemptedMessagesQuery))),
  {
    portal: "scoped",
    role: "read",
    doc: {
      operationId: "svixListAttemptedMessages",
      summary: "List the messages sent to an endpoint (Svix: messageAttempt.listAttemptedMessages)",
      description: "Newest first, each with its delivery's status: 0 success, 1 pending, 2 fail, 3 sending (retrying), 4 canceled (0 without `expanded_statuses`).",
      params: SVIX_ENDPOINT,
      query: ListAttemptedMessagesQuery,
      success: { status: 200, description: "A page of messages.", schema: ListResponseEndpointMessageOut },
    },
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });
