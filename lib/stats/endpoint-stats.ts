import { z } from "zod";
import { onReplica, type Ctx } from "../context";
import { IsoDate } from "../schemas";
import { findEndpointRow } from "../endpoints/queries";
import { readEndpointTotals } from "./queries";
import { POLLING_KIND } from "../destinations";

export const EndpointStatsQuery = z.object({
  since: IsoDate.optional(),
});

/**
 * Attempt counts and latency percentiles of one endpoint since a time (default: the last 24 h),
 * read from the stats rollup, never counted over attempts: `since` counts from the start of its
 * minute, and p50/p99 are exact to their histogram bucket (within 3.2 %).
 */
export async function endpointStats(ctx: Ctx, ref: string, query: z.infer<typeof EndpointStatsQuery>) {
  const { id, destination } = await findEndpointRow(ctx, ref);
  // The endpoint is found on the primary (one just made has statistics, empty ones); its figures on the replica.
  const totals = await readEndpointTotals(onReplica(ctx), id, query.since ?? new Date(Date.now() - 86_400_000));
  return {
    since: totals.since.toISOString(),
    attempts: totals.attempts,
    succeeded: totals.succeeded,
    failed: totals.failed,
    success_rate: totals.attempts === 0 ? null : totals.succeeded / totals.attempts,
    p50_ms: totals.p50_ms,
    p99_ms: totals.p99_ms,
    // A polling endpoint's attempts are its messages given by polls (lib/polling): each succeeded, p50/p99 how long they waited to be read.
    polled: destination === POLLING_KIND ? totals.succeeded : 0,
  };
}
