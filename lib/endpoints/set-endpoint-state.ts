import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { deliveries, endpoints, type EndpointState } from "../db/schema";
import { raiseAlertsIn } from "../alerts/raise-alert";

/**
 * The one way an endpoint changes state. Enabling clears the failure streak, closes the circuit
 * and, if the endpoint was not active, raises endpoint.enabled; disabling (by a person or by the
 * 5-day rule) cancels its pending deliveries, which a recovery can bring back later.
 */
export async function setEndpointState(
  db: Executor,
  id: string,
  change: { state: "active" } | { state: Exclude<EndpointState, "active">; reason: string },
) {
  const now = new Date();
  if (change.state !== "active") {
    // Delivery rows before the endpoint row — the order the worker's claim locks them in.
    await db.execute(sql`select 1 from ${deliveries} where ${deliveries.endpointId} = ${id} and ${deliveries.status} = 'pending' order by ${deliveries.id} for update`);
  }
  // Locked, so an auto-disable committing meanwhile cannot be overwritten unannounced.
  const [before] = await db
    .select({ state: endpoints.state, reason: endpoints.disabledReason })
    .from(endpoints)
    .where(eq(endpoints.id, id))
    .for("update");
  const [row] =
    change.state === "active"
      ? await db
          .update(endpoints)
          .set({
            state: "active",
            disabledReason: null,
            disabledAt: null,
            failingSince: null,
            failingAlertedAt: null,
            consecutiveFailures: 0,
            circuitOpenUntil: null,
            updatedAt: now,
          })
          .where(eq(endpoints.id, id))
          .returning()
      : await db
          .update(endpoints)
          .set({ state: change.state, disabledReason: change.reason, disabledAt: now, updatedAt: now })
          .where(eq(endpoints.id, id))
          .returning();
  if (change.state !== "active") {
    await db
      .update(deliveries)
      .set({ status: "canceled", nextAttemptAt: null, leaseToken: null, parked: false, lastError: `endpoint_${change.state}`, updatedAt: now })
      .where(and(eq(deliveries.endpointId, id), eq(deliveries.status, "pending")));
  }
  if (change.state === "active" && before && before.state !== "active") {
    await raiseAlertsIn(db, [{ kind: "endpoint.enabled", endpointId: id, data: { previous_state: before.state, reason: before.reason } }]);
  }
  return row!;
}
