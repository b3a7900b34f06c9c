import type { Sql } from "../db/client";

/**
 * A polling endpoint nobody has polled for ALERT_FAILING_AFTER (since its last poll, or its creation)
 * is failing as an endpoint whose attempts fail is: its failure streak starts then, and the failing
 * rule (lib/endpoints/alert-failing.ts, which the sweep runs next) raises endpoint.failing once for
 * it. The next poll ends the streak (./record-polled.ts). Never auto-disabled: its consumer may come
 * back and read on. Returns the endpoints marked.
 */
export async function markUnpolledEndpoints(sql: Sql, { failingAfterMs }: { failingAfterMs: number }): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    update endpoints set failing_since = coalesce(last_polled_at, created_at)
    where destination = 'polling' and state = 'active' and failing_since is null
      and coalesce(last_polled_at, created_at) <= now() - ${failingAfterMs} * interval '1 millisecond'
    returning id`;
  return rows.map((r) => r.id);
}
