import { eq, sql } from "drizzle-orm";
import type { Ctx } from "../context";
import { endpoints, type EndpointState } from "../db/schema";
import { notifyDue } from "../jobs";
import { raiseAlerts } from "../jobs/raise-alert";
import { NotFoundError } from "../errors";
import { lockEndpoints } from "./lock-endpoints";
import { unparkFreedSlots } from "./unpark-freed-slots";

/**
 * The one way an endpoint changes state. Enabling clears the failure streak, closes the circuit
 * (waking the backlog parked behind it, as a probe's success would) and, if the endpoint was not
 * active, raises endpoint.enabled; disabling (by a person or by the
 * 5-day rule) cancels its pending deliveries, which a recovery can bring back later. Called first
 * in its transaction: it takes the locks in the order the worker's outcome writes take them.
 */
export async function setEndpointState({
  ctx,
  id,
  change,
}: {
  ctx: Ctx;
  id: string;
  change: { state: "active" } | { state: Exclude<EndpointState, "active">; reason: string };
}) {
  const { db } = ctx;
  const now = new Date();
  // Disabling cancels the queued deliveries: their queue and delivery rows are locked before the
  // endpoint's. Enabling touches the endpoint row alone.
  if (change.state !== "active") await lockEndpoints(ctx, { endpointId: id }, "queued");
  // Locked, so an auto-disable committing meanwhile cannot be overwritten unannounced.
  const [before] = await db
    .select({ state: endpoints.state, reason: endpoints.disabledReason })
    .from(endpoints)
    .where(eq(endpoints.id, id))
    .for("update");
  // Deleted since the caller found it.
  if (!before) throw new NotFoundError("endpoint", id);
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
          // Its pending deliveries are canceled below: nothing stays booked past its rate.
          .set({ state: change.state, disabledReason: change.reason, disabledAt: now, rateBookedUntil: null, updatedAt: now })
          .where(eq(endpoints.id, id))
          .returning();
  if (change.state !== "active") {
    await db.execute(sql`select webhook_admin_cancel_pending(array[${id}]::text[], ${`endpoint_${change.state}`})`);
  } else {
    // Its slots' worth of the backlog due now (SKIP LOCKED: the queue rows are not locked first
    // here); their outcomes wake the rest. Workers hear of it after the commit.
    const woken = await unparkFreedSlots(ctx.sql, [id], ctx.config.ENDPOINT_MAX_CONCURRENCY);
    if (woken.count > 0) await notifyDue(ctx.sql);
  }
  if (change.state === "active" && before.state !== "active") {
    await raiseAlerts(ctx, [{ kind: "endpoint.enabled", endpointId: id, data: { previous_state: before.state, reason: before.reason } }]);
  }
  return row!;
}
