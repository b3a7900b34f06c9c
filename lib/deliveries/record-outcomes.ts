import type { Sql } from "../db/client";
import type { QueueKind } from "../db/schema/messages";
import { raiseAlerts } from "../jobs/raise-alert";
import { wakeDeliveriesAt } from "../jobs";
import { completeRequested } from "./outcomes/complete-requested";
import { completeScheduled, type ExhaustedRow } from "./outcomes/complete-scheduled";
import { logAttempts } from "./outcomes/log-attempts";
import { unparkFreedSlots } from "../endpoints/unpark-freed-slots";
import { tallyEndpoints, updateEndpointHealth } from "./outcomes/update-endpoint-health";
import type { AttemptOutcome, HealthPolicy } from "./outcomes/types";

export type { AttemptOutcome, HealthPolicy } from "./outcomes/types";
export { tallyEndpoints } from "./outcomes/update-endpoint-health";

/**
 * Writes a batch's outcomes in one transaction, stage by stage (each in ./outcomes/): the asked-for
 * attempts (resends, recovery items) first, since they lock deliveries before endpoints; then, sent
 * together, the attempt log, the scheduled deliveries' next step, the endpoints' failure streaks and
 * the slots freed for parked deliveries, with the wake-ups for the retries scheduled; last, the
 * alerts those changes raise — so alerts commit with their cause or not at all. The lease token
 * guards every outcome: a worker whose lease ran out (and whose queue row was claimed again) writes
 * its attempt to the log but no longer moves the delivery. `unparked`: the kinds of the parked rows
 * given a slot (now due), for the worker to claim them.
 */
export async function recordOutcomes(
  sql: Sql,
  { outcomes, health }: { outcomes: AttemptOutcome[]; health: HealthPolicy },
): Promise<{ unparked: QueueKind[] }> {
  if (outcomes.length === 0) return { unparked: [] };
  const tallies = tallyEndpoints(outcomes);
  let unparked: Promise<{ kind: QueueKind }[]> | undefined;
  await sql.begin(async (tx) => {
    const requested = outcomes.filter((o) => !o.next);
    if (requested.length > 0) await completeRequested(tx, requested);
    const scheduled = outcomes.filter((o) => o.next);
    const exhausted: Promise<ExhaustedRow[]> = scheduled.length > 0 ? completeScheduled(tx, scheduled) : Promise.resolve([]);
    const endpointChanges = updateEndpointHealth(tx, tallies, health);
    // Every attempt held one of its endpoint's slots.
    unparked = unparkFreedSlots(tx, outcomes.map((o) => o.endpointId), health.defaultConcurrency);
    const retryTimes = scheduled.flatMap((o) => (o.next!.status === "pending" && o.next!.attemptAt ? [o.next!.attemptAt.getTime()] : []));
    await Promise.all([logAttempts(tx, outcomes), exhausted, endpointChanges, unparked, wakeDeliveriesAt(tx, retryTimes)]);
    await raiseAlerts({ sql: tx }, [
      ...(await exhausted)
        .filter((d) => d.exhausted)
        .map((d) => ({
          kind: "message.attempt.exhausted" as const,
          endpointId: d.endpoint_id,
          data: { message_id: d.message_id, delivery_id: d.id, attempts: d.attempts, last_status_code: d.last_status_code, last_error: d.last_error },
        })),
      ...(await endpointChanges)
        .filter((e) => e.recovered)
        .map((e) => ({ kind: "endpoint.recovered" as const, endpointId: e.id, data: { failing_since: e.was_failing_since?.toISOString() ?? null } })),
    ]);
  });
  return { unparked: [...new Set((await unparked)?.map((r) => r.kind) ?? [])] };
}
