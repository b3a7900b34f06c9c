import { json } from "@/lib/http/request";
import { SVIX_SINK_CONSUMER } from "@/lib/svix/openapi";
import { ConsumerPollQuery, PollerOut, svixConsumerPoll } from "@/lib/svix/poller";
import { parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(
  async ({ req, params, ctx }) => json(await svixConsumerPoll(ctx, params.app_id!, params.sink_id!, params.consumer_id!, parseSvixQuery(req, ConsumerPollQuery))),
  {
    portal: "scoped",
    role: "read",
    doc: {
      operationId: "svixConsumerPoll",
      summary: "Read a polling endpoint's messages from a named reader's position (Svix: message.poller.consumerPoll)",
      description:
        "As `GET /app/{app_id}/poller/{sink_id}`, from `iterator` or else from where this consumer stands (its last page's end, or where `seek` put it; first: the endpoint's creation); the page's end is then its position.",
      params: SVIX_SINK_CONSUMER,
      query: ConsumerPollQuery,
      success: { status: 200, description: "`{data, iterator, done}`.", schema: PollerOut },
      errors: { 400: "`invalid_cursor`: the iterator is not one a poll answered.", 404: "`not_found`: no such polling endpoint in the application.", 410: "`cursor_expired`: the position is before the oldest message kept." },
    },
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });
