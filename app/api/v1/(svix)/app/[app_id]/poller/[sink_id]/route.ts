import { json } from "@/lib/http/request";
import { SVIX_SINK } from "@/lib/svix/openapi";
import { PollerOut, PollerQuery, svixPoll } from "@/lib/svix/poller";
import { parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ req, params, ctx }) => json(await svixPoll(ctx, params.app_id!, params.sink_id!, parseSvixQuery(req, PollerQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixPoll",
    summary: "Read a polling endpoint's messages (Svix: message.poller.poll)",
    description:
      "The polling endpoint's messages (its event types, channels and payload filter; narrowed by `event_type` and `channel`) after `iterator` — else after `after`, else from the endpoint's creation — oldest first, each with the Standard Webhooks `headers` an HTTP delivery would carry. Answered at once (no long-poll). Messages given past the endpoint's committed position count as delivered (`polled`), as `GET /endpoints/{id}/poll` (docs/destinations.md#polling-endpoints).",
    params: SVIX_SINK,
    query: PollerQuery,
    success: { status: 200, description: "`{data, iterator, done}`.", schema: PollerOut },
    errors: { 400: "`invalid_cursor`: the iterator is not one a poll answered.", 404: "`not_found`: no such polling endpoint in the application.", 410: "`cursor_expired`: the iterator points before the oldest message kept." },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });
