import { otherMethods } from "@/lib/http/methods";
import { json, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { getStats, StatsQuery } from "@/lib/stats";

export const GET = withApiKey(async ({ req, ctx }) => json(await getStats(ctx, parseQuery(req, StatsQuery))));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
