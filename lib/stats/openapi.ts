import type { z } from "zod";
import { output, type Assert, type Operation, type Same } from "../openapi/operation";
import type { getStats } from "./queries";
import { StatsQuery, StatsSeries } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/openapi/document.ts.
type _DocumentedAnswersMatch = [Assert<Same<z.infer<typeof StatsSeries>, Awaited<ReturnType<typeof getStats>>>>];

export const statsTag = {
  name: "Stats",
  description: "Attempt counts, success and failure, and latency percentiles over time, read from a rollup the outcome writes keep.",
} as const;

export const statsSchemas = { StatsSeries: output(StatsSeries) };

export const statsOperations: Operation[] = [
  {
    method: "get",
    path: "/stats",
    operationId: "getStats",
    summary: "Attempt statistics over time",
    description:
      "One entry per bucket from `since` (default: 24 h before `until`) to `until` (default: now), oldest first, empty buckets included " +
      "with zeros and null percentiles. Buckets are UTC minutes, hours or days (`bucket`; by default minutes up to a 6 h span, hours up to " +
      "14 days, days beyond); `since` is taken back to the start of its bucket and `until` on to the end of its; at most 1,500 buckets. " +
      "Scoped to `endpoint_id`, else to `consumer`, else to every consumer. p50/p99 are read from a latency histogram, exact to within 3.2 %.",
    tag: "Stats",
    query: StatsQuery,
    success: { status: 200, description: "The series.", schema: "StatsSeries" },
    errors: {
      400: "`validation_failed`: a bad date or bucket, `since` not before `until`, or more than 1,500 buckets.",
      404: "`not_found`: no such consumer or endpoint (or the endpoint is not the consumer's).",
    },
  },
];
