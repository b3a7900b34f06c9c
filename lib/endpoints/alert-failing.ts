import type { Sql, SqlOrTx } from "../db/client";
import { raiseAlerts } from "../jobs/raise-alert";

/**
 * The 1-hour rule: an active endpoint whose failure streak has lasted ALERT_FAILING_AFTER raises
 * endpoint.failing, once per streak (failing_alerted_at marks it; the streak's first success
 * clears it and raises endpoint.recovered). Checked after failed attempts and by the minute
 * sweep, so an endpoint whose next retry is hours away is still reported on time.
 */
export async function alertFailingEndpoints(sql: Sql, input: { failingAfterMs: number; endpointIds?: string[] }): Promise<string[]> {
  const due = (tx: SqlOrTx) => tx`
    state = 'active' and failing_alerted_at is null and failing_since is not null
    and failing_since <= now() - ${input.failingAfterMs} * interval '1 millisecond'
    ${input.endpointIds ? tx`and id = any(${input.endpointIds})` : tx``}`;
  // Read outside a transaction first: nearly always nothing is due, and this runs after failures.
  const candidates = await sql<{ id: string }[]>`select id from endpoints where ${due(sql)}`;
  if (candidates.length === 0) return [];
  return sql.begin(async (tx) => {
    // Endpoint rows in id order, as every other writer locks them; re-checked once locked.
    await tx`select 1 from endpoints where id = any(${candidates.map((c) => c.id)}) order by id for update`;
    const rows = await tx<{ id: string; failing_since: Date; consecutive_failures: number; status_code: number | null; error: string | null }[]>`
      update endpoints e set failing_alerted_at = now()
      where id = any(${candidates.map((c) => c.id)}) and ${due(tx)}
      returning e.id, e.failing_since, e.consecutive_failures,
        (select a.status_code from attempts a where a.endpoint_id = e.id order by a.created_at desc nulls last limit 1) as status_code,
        (select a.error from attempts a where a.endpoint_id = e.id order by a.created_at desc nulls last limit 1) as error`;
    await raiseAlerts(
      { sql: tx },
      rows.map((r) => ({
        kind: "endpoint.failing",
        endpointId: r.id,
        data: {
          failing_since: r.failing_since.toISOString(),
          consecutive_failures: r.consecutive_failures,
          last_status_code: r.status_code,
          last_error: r.error,
        },
      })),
    );
    return rows.map((r) => r.id);
  });
}
