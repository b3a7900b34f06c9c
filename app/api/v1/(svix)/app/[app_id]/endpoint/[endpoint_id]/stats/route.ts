import { json } from "@/lib/http/request";
import { StatsQuery, svixEndpointStats, EndpointStatsOut } from "@/lib/svix/endpoints";
import { SVIX_ENDPOINT } from "@/lib/svix/openapi";
import { parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ req, params, ctx }) => json(await svixEndpointStats(ctx, params.app_id!, params.endpoint_id!, parseSvixQuery(req, StatsQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixGetEndpointStats",
    summary: "Count an endpoint's messages by status (Svix: endpoint.getStats)",
    description:
      "`success` and `fail`: the endpoint's attempts in `since`–`until`, from the stats rollup (`until` defaults to now and may not be in the future; " +
      "`since` defaults to 28 days before it and may not be earlier: 400 `invalid_range`). `pending` and `sending`: its deliveries queued now, up to 1,000.",
    errors: { 400: "`invalid_range`: `until` in the future, or a window over 28 days." },
    params: SVIX_ENDPOINT,
    query: StatsQuery,
    success: { status: 200, description: "`{success, pending, sending, fail, canceled}`.", schema: EndpointStatsOut },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });
