import type { Sql } from "../db/client";
import { wakeDeliveries } from "../jobs";
import { autoDisableFailingEndpoints } from "../endpoints/auto-disable";
import { alertFailingEndpoints } from "../endpoints/alert-failing";
import { wakeActiveRecoveries } from "../recoveries/advance-recoveries";
import { compactStats } from "../stats/compact-stats";

// A worker that has not beaten for this long is dead; its graphile locks are released.
export const DEAD_WORKER_AFTER_MS = 60_000;

/**
 * The periodic safety net: release jobs held by dead worker processes (graphile would otherwise
 * wait 4 hours), wake a delivery task if anything is due — a lease that ran out after a crash, a
 * wake-up that was lost — disable endpoints failing past ENDPOINT_DISABLE_AFTER, raise
 * endpoint.failing for streaks past ALERT_FAILING_AFTER (even when no attempt is due to notice),
 * keep active recovery runs fed, drop expired idempotency keys, and fold stats rollup rows a
 * worker left appended (workers fold their own while they deliver).
 */
export async function sweep(
  sql: Sql,
  policy: { disableAfterMs: number; failingAfterMs: number },
): Promise<{ deadWorkers: string[]; woke: boolean; expiredKeys: number; autoDisabled: string[]; failing: string[] }> {
  const dead = await sql<{ id: string }[]>`
    delete from workers where heartbeat_at < now() - ${DEAD_WORKER_AFTER_MS} * interval '1 millisecond' returning id`;
  const deadWorkers = dead.map((w) => w.id);
  if (deadWorkers.length > 0) await sql`select graphile_worker.force_unlock_workers(${deadWorkers}::text[])`;
  const [due] = await sql<{ due: boolean }[]>`
    select exists(select 1 from delivery_queue where next_attempt_at <= now()) as due`;
  if (due?.due) await wakeDeliveries(sql);
  await wakeActiveRecoveries(sql);
  const expired = await sql`
    delete from idempotency_keys where key in (select key from idempotency_keys where expires_at < now() limit 10000)`;
  await compactStats(sql);
  const autoDisabled = await autoDisableFailingEndpoints(sql, { disableAfterMs: policy.disableAfterMs });
  const failing = await alertFailingEndpoints(sql, { failingAfterMs: policy.failingAfterMs });
  return { deadWorkers, woke: Boolean(due?.due), expiredKeys: expired.count, autoDisabled, failing };
}
