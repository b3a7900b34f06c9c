import { EndpointStatsQuery, endpointStats } from "@/lib/endpoints";
import { json, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { otherMethods } from "@/lib/http/methods";

export const GET = withApiKey(async ({ req, params, ctx }) =>
  json(await endpointStats(ctx, params.id!, parseQuery(req, EndpointStatsQuery))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
