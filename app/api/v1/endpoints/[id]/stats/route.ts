import { EndpointStatsQuery, endpointStats } from "@/lib/stats";
import { json, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { ENDPOINT } from "@/lib/openapi/params";
import { EndpointStats } from "@/lib/endpoints/schemas";

export const GET = withApi(async ({ req, params, ctx }) =>
  json(await endpointStats(ctx, params.id!, parseQuery(req, EndpointStatsQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "getEndpointStats",
    summary: "Get an endpoint's attempt statistics",
    tag: "Endpoints",
    params: ENDPOINT,
    query: EndpointStatsQuery,
    success: { status: 200, description: "Counts and latency percentiles since `since` (default: the last 24 h).", schema: EndpointStats },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
