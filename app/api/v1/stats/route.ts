import { otherMethods } from "@/lib/http/methods";
import { json, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { getStats, StatsQuery } from "@/lib/stats";
import { StatsSeries } from "@/lib/stats/schemas";

export const GET = withApi(async ({ req, ctx }) => json(await getStats(ctx, parseQuery(req, StatsQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "getStats",
    summary: "Attempt statistics over time",
    description:
      "One entry per bucket from `since` (default: 24 h before `until`) to `until` (default: now), oldest first, empty buckets included " +
      "with zeros and null percentiles. Buckets are UTC minutes, hours or days (`bucket`; by default minutes up to a 6 h span, hours up to " +
      "14 days, days beyond); `since` is taken back to the start of its bucket and `until` on to the end of its; at most 1,500 buckets. " +
      "Scoped to `endpoint_id`, else to `consumer`, else to every consumer. p50/p99 are read from a latency histogram, exact to within 3.2 %.",
    tag: "Stats",
    query: StatsQuery,
    success: { status: 200, description: "The series.", schema: StatsSeries },
    errors: {
      400: "`validation_failed`: a bad date or bucket, `since` not before `until`, or more than 1,500 buckets.",
      404: "`not_found`: no such consumer or endpoint (or the endpoint is not the consumer's).",
    },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
