import type { SqlOrTx } from "../db/client";
import type { QueueKind } from "../db/schema/messages";

/**
 * Slots freed at an endpoint go to deliveries parked waiting for one (as many as are free), live
 * work first. `slots`: the endpoint of each slot given up (by an outcome, a lease handed back, or
 * a circuit closed by hand, whose backlog waits parked for the probe's outcome: claim/apply-limits.sql).
 * `defaultConcurrency`: ENDPOINT_MAX_CONCURRENCY, for an endpoint without a cap of its own.
 * Returns the kind of each row made due (the worker's lanes claim by kind).
 */
export function unparkFreedSlots(tx: SqlOrTx, slots: string[], defaultConcurrency: number) {
  const freed = new Map<string, number>();
  for (const endpointId of slots) freed.set(endpointId, (freed.get(endpointId) ?? 0) + 1);
  const endpoints = [...freed];
  return tx<{ kind: QueueKind }[]>`
    -- Truncated: the column keeps milliseconds, and now() rounded up would be due only after the claim that follows.
    update delivery_queue q set parked = false, next_attempt_at = date_trunc('milliseconds', now())
    from (
      select p.delivery_id, p.kind
      from unnest(${endpoints.map(([id]) => id)}::text[], ${endpoints.map(([, n]) => String(n))}::text[]::int[])
        as v(endpoint_id, freed)
      join endpoints e on e.id = v.endpoint_id and e.state = 'active'
        -- Most outcomes free a slot nobody waits for: skip counting the endpoint's leases then.
        and exists (select 1 from delivery_queue w where w.endpoint_id = v.endpoint_id and w.parked)
      cross join lateral (
        select delivery_id, kind from delivery_queue p
        -- The endpoint as a range, and first in the order, so that only delivery_queue_parked_idx
        -- serves this: there its parked rows are one range, in this order. With an equality the
        -- planner drops the endpoint from the order, and then walking the due index in (kind,
        -- next_attempt_at) order until enough of them turn up looked as cheap — an endpoint id it
        -- cannot see (it comes from the array) counts as a ninth of the queue. With 80,000 rows
        -- parked behind failing endpoints' open circuits, every outcome at a healthy endpoint read
        -- thousands of rows, 100 million in ten minutes, and the healthy endpoints fell behind
        -- (bench part k, 2026-12-07; tests/deliveries/unpark-plan.test.ts).
        where p.endpoint_id >= v.endpoint_id and p.endpoint_id <= v.endpoint_id and p.parked
        -- Live work first: a recovery item never takes the slot a scheduled delivery waits for.
        order by p.endpoint_id, p.kind, p.next_attempt_at
        limit greatest(v.freed, coalesce(e.max_concurrency, ${defaultConcurrency}) - (
          select count(*) from delivery_queue l
          where l.endpoint_id = v.endpoint_id and l.lease_token is not null and l.next_attempt_at > now()))
        for update skip locked
      ) p
    ) x
    where q.delivery_id = x.delivery_id and q.kind = x.kind
    returning q.kind`;
}
