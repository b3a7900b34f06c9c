import { EndpointStatsQuery, endpointStats } from "@/lib/endpoints";
import { json, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";

export const GET = withApiKey(async ({ req, params, ctx }) =>
  json(await endpointStats(ctx, params.id!, parseQuery(req, EndpointStatsQuery))),
);
