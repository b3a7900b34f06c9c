import { sql, type SQL } from "drizzle-orm";
import type { Ctx } from "../context";

/**
 * Locks what a state change or deletion of endpoints touches, in the order the worker's claims
 * and outcome writes lock it — queue rows, then deliveries, then endpoint rows, each in id order —
 * so a change racing a worker's outcomes waits for them instead of deadlocking. `deliveries`:
 * "queued" for the ones still in the queue (disabling cancels those), "all" when they all go.
 */
export async function lockEndpoints({ db }: Ctx, which: { endpointId: string } | { consumerId: string }, deliveries: "queued" | "all") {
  const endpointIds: SQL =
    "endpointId" in which ? sql`select ${which.endpointId}::text` : sql`select id from endpoints where consumer_id = ${which.consumerId}`;
  await db.execute(sql`select 1 from delivery_queue where endpoint_id in (${endpointIds}) order by delivery_id, kind for update`);
  // "queued": by id through the primary key, whatever the estimate of the endpoint's backlog (a
  // join can be planned as a scan of every delivery ever made).
  await db.execute(
    deliveries === "queued"
      ? sql`select 1 from deliveries where id = any(array(select delivery_id from delivery_queue where endpoint_id in (${endpointIds})))
            order by id for update`
      : sql`select 1 from deliveries where endpoint_id in (${endpointIds}) order by id for update`,
  );
  await db.execute(sql`select 1 from endpoints where id in (${endpointIds}) order by id for update`);
}
