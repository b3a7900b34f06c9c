import type { Config } from "../config";
import type { Sql } from "../db/client";
import { wakeAtLeaseEnd, wakeDeliveries, wakeDeliveriesAt } from "../jobs";
import { attemptDelivery, egressPolicy } from "./attempt-delivery";
import { claimDueDeliveries } from "./claim-due-deliveries";
import { recordOutcomes } from "./record-outcomes";
import { activeSecretsByEndpoint } from "./signing-keys";
import { autoDisableFailingEndpoints } from "../endpoints/auto-disable";

export function healthPolicy(config: Config) {
  return {
    failureThreshold: config.CIRCUIT_FAILURE_THRESHOLD,
    openForMs: config.CIRCUIT_OPEN_FOR,
    defaultConcurrency: config.ENDPOINT_MAX_CONCURRENCY,
  };
}

/** How long a claimed delivery is held: the whole attempt's deadline plus room to write the outcome. */
export function leaseMs(config: Config): number {
  return config.DELIVERY_TIMEOUT + 15_000;
}

/**
 * One batch: claim due deliveries, POST them all concurrently (no database connection is held
 * while waiting on receivers), then write every attempt and outcome in one transaction.
 * A full batch means more may be due: it wakes a sibling task first, so batches overlap and a
 * backlog fans out over the worker's concurrency without one job per attempt.
 */
export async function deliverDueBatch(
  sql: Sql,
  config: Config,
): Promise<{ claimed: number; succeeded: number; failed: number; more: boolean }> {
  const { token, deliveries, skipped } = await claimDueDeliveries(sql, {
    limit: config.DELIVERY_BATCH_SIZE,
    leaseMs: leaseMs(config),
    defaultConcurrency: config.ENDPOINT_MAX_CONCURRENCY,
  });
  // Nothing of our own to send: whoever holds the skipped endpoints carries on with them.
  if (deliveries.length === 0) return { claimed: 0, succeeded: 0, failed: 0, more: false };
  await Promise.all([
    wakeAtLeaseEnd(sql, Date.now() + leaseMs(config)),
    deliveries.length === config.DELIVERY_BATCH_SIZE || skipped ? wakeDeliveries(sql) : null,
  ]);
  const secrets = await activeSecretsByEndpoint(sql, [...new Set(deliveries.map((d) => d.endpoint_id))]);
  const policy = egressPolicy(config);
  const outcomes = await Promise.all(
    deliveries.map((delivery) =>
      attemptDelivery({
        delivery,
        secrets: secrets.get(delivery.endpoint_id) ?? [],
        trigger: delivery.probe ? "probe" : "scheduled",
        config,
        policy,
      }),
    ),
  );
  const retryTimes = outcomes.flatMap((o) => (o.next?.status === "pending" && o.next.attemptAt ? [o.next.attemptAt.getTime()] : []));
  const { unparked } = await recordOutcomes(sql, {
    leaseToken: token,
    outcomes,
    health: healthPolicy(config),
    wakeSql: (tx) => wakeDeliveriesAt(tx, retryTimes),
  });
  const failing = [...new Set(outcomes.filter((o) => !o.success).map((o) => o.endpointId))];
  if (failing.length > 0) await autoDisableFailingEndpoints(sql, { disableAfterMs: config.ENDPOINT_DISABLE_AFTER, endpointIds: failing });
  const succeeded = outcomes.filter((o) => o.success).length;
  // Parked deliveries given a freed slot are due now: the caller claims again rather than waiting.
  return { claimed: deliveries.length, succeeded, failed: outcomes.length - succeeded, more: deliveries.length === config.DELIVERY_BATCH_SIZE || unparked > 0 || skipped };
}
