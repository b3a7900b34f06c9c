import { sql } from "drizzle-orm";
import type { Ctx } from "../context";
import type { EndpointHealthCounts } from "./schemas";

/** The overview's three figures, from the endpoints table (one row per endpoint, not per attempt). */
export async function endpointHealthCounts(ctx: Ctx): Promise<EndpointHealthCounts> {
  const rows = await ctx.db.execute<{ failing: number; circuit_open: number; auto_disabled: number }>(sql`
    select count(*) filter (where state = 'active' and failing_since is not null)::int as failing,
           count(*) filter (where state = 'active' and circuit_open_until > now())::int as circuit_open,
           count(*) filter (where state = 'auto_disabled')::int as auto_disabled
    from endpoints`);
  const row = (rows as unknown as EndpointHealthCounts[])[0];
  return row ?? { failing: 0, circuit_open: 0, auto_disabled: 0 };
}
