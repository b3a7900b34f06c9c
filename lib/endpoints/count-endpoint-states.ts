import type { Sql } from "../db/client";

export type EndpointStateCounts = {
  /** Endpoints per state (active, disabled, auto_disabled). */
  endpoints: Record<string, number>;
  /** Active endpoints with a failure streak. */
  failing: number;
  /** Active endpoints whose circuit is open now. */
  circuits_open: number;
  /** Recovery runs per active state (planned, canary, running, paused). */
  recoveries: Record<string, number>;
};

/**
 * For /metrics: endpoints by state and health (one pass over endpoints, a row per endpoint, not per
 * attempt) and active recovery runs (recoveries_active_idx).
 */
export async function countEndpointStates(sql: Sql): Promise<EndpointStateCounts> {
  const [row] = await sql<{ endpoints: Record<string, number> | null; failing: number; circuits_open: number; recoveries: Record<string, number> | null }[]>`
    select
      (select json_object_agg(state, n) from (select state, count(*)::int as n from endpoints group by state) s) as endpoints,
      (select count(*)::int from endpoints where state = 'active' and failing_since is not null) as failing,
      (select count(*)::int from endpoints where state = 'active' and circuit_open_until > now()) as circuits_open,
      -- ACTIVE_RECOVERY_STATES, written as recoveries_active_idx's predicate so the planner uses it.
      (select json_object_agg(state, n) from (select state, count(*)::int as n from recoveries
         where state in ('planned', 'canary', 'running', 'paused') group by state) r) as recoveries`;
  return { endpoints: row?.endpoints ?? {}, failing: row?.failing ?? 0, circuits_open: row?.circuits_open ?? 0, recoveries: row?.recoveries ?? {} };
}
