import type { Sql } from "../db/client";
import { retryOnConflict } from "../db/retry";
import type { ClaimedDelivery } from "./claim-due-deliveries";
import { unparkFreedSlots } from "../endpoints/unpark-freed-slots";
import type { HealthPolicy } from "./outcomes/types";

/**
 * Gives claimed rows back unattempted: due again at once, for the next claim to decide on anew, and
 * their endpoints' slots to deliveries parked waiting for one. Only rows still held under `token`.
 */
export async function releaseLeases(
  sql: Sql,
  input: { token: string; deliveries: Pick<ClaimedDelivery, "id" | "kind" | "endpoint_id">[]; health: HealthPolicy },
): Promise<void> {
  const { token, health } = input;
  if (input.deliveries.length === 0) return;
  // In the order other writers lock queue rows (auto-disable: by delivery, then kind).
  const deliveries = [...input.deliveries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.kind - b.kind));
  await retryOnConflict(() => sql.begin(async (tx) => {
    // Truncated as the unparked are: the column keeps milliseconds.
    const released = await tx<{ endpoint_id: string }[]>`
      update delivery_queue q set next_attempt_at = date_trunc('milliseconds', now()), lease_token = null, parked = false
      from unnest(${deliveries.map((d) => d.id)}::text[], ${deliveries.map((d) => String(d.kind))}::text[]::smallint[]) as v(id, kind)
      where q.delivery_id = v.id and q.kind = v.kind and q.lease_token = ${token}
      returning q.endpoint_id`;
    // Only the slots this lease still held: a row whose lease ran out (and was claimed again) frees none.
    if (released.length > 0) await unparkFreedSlots(tx, released.map((r) => r.endpoint_id), health.defaultConcurrency);
  }));
}
