import { z } from "zod";
import { sql } from "drizzle-orm";
import type { Ctx } from "../context";
import { IsoDate } from "../schemas";
import { findEndpointRow } from "./queries";

export const EndpointStatsQuery = z.object({
  since: IsoDate.optional(),
});

/** Attempt counts and latency percentiles of one endpoint since a time (default: the last 24 h). */
export async function endpointStats(ctx: Ctx, id: string, query: z.infer<typeof EndpointStatsQuery>) {
  await findEndpointRow(ctx, id);
  const since = query.since ?? new Date(Date.now() - 86_400_000);
  const [row] = await ctx.db.execute<{ attempts: string; succeeded: string; failed: string; p50: number | null; p99: number | null }>(sql`
    select count(*) as attempts,
           count(*) filter (where success) as succeeded,
           count(*) filter (where not success) as failed,
           percentile_cont(0.5) within group (order by duration_ms) as p50,
           percentile_cont(0.99) within group (order by duration_ms) as p99
    from attempts where endpoint_id = ${id} and created_at >= ${since.toISOString()}::timestamptz`);
  const total = Number(row?.attempts ?? 0);
  const succeeded = Number(row?.succeeded ?? 0);
  return {
    since: since.toISOString(),
    attempts: total,
    succeeded,
    failed: Number(row?.failed ?? 0),
    success_rate: total === 0 ? null : succeeded / total,
    p50_ms: row?.p50 === null || row?.p50 === undefined ? null : Math.round(Number(row.p50)),
    p99_ms: row?.p99 === null || row?.p99 === undefined ? null : Math.round(Number(row.p99)),
  };
}
