import { json } from "@/lib/http/request";
import { SVIX_SINK_CONSUMER } from "@/lib/svix/openapi";
import { SeekIn, SeekOut, svixConsumerSeek } from "@/lib/svix/poller";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const POST = svixRoute(async ({ params, ctx, body }) => json(await svixConsumerSeek(ctx, params.app_id!, params.sink_id!, params.consumer_id!, body)), {
  body: SeekIn,
  portal: "scoped",
  role: "write",
  doc: {
    operationId: "svixConsumerSeek",
    summary: "Move a named reader of a polling endpoint (Svix: message.poller.consumerSeek)",
    description: "The consumer stands just after `after`: its next poll gives the messages made after it. Answers the iterator of that position.",
    params: SVIX_SINK_CONSUMER,
    body: { schema: SeekIn },
    success: { status: 200, description: "`{iterator}`.", schema: SeekOut },
    errors: { 404: "`not_found`: no such polling endpoint in the application.", 410: "`cursor_expired`: `after` is before the oldest message kept." },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });
