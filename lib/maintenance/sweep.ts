import type { Ctx } from "../context";
import type { Sql } from "../db/client";
import { wakeDeliveries, wakeStrandedErasures } from "../jobs";
import { autoDisableFailingEndpoints } from "../endpoints/auto-disable";
import { alertFailingEndpoints } from "../endpoints/alert-failing";
import { markUnpolledEndpoints } from "../polling/mark-unpolled";
import { wakeActiveRecoveries } from "../recoveries/advance-recoveries";
import type { Counts } from "../retention/counts";
import { recordSweepRun } from "../retention/record-sweep-run";
import { runRetention } from "../retention/run-retention";
import { compactStats } from "../stats/compact-stats";

// A worker that has not beaten for this long is dead; its graphile locks are released.
export const DEAD_WORKER_AFTER_MS = 60_000;

export type SweepResult = {
  deadWorkers: string[];
  woke: boolean;
  expiredKeys: number;
  autoDisabled: string[];
  failing: string[];
  /** Rows retention removed, per table, and whether it stopped at its time budget with more due. */
  retention: { removed: Counts; more: boolean };
};

/**
 * The periodic safety net, every SWEEP_INTERVAL on one worker: release jobs held by dead worker
 * processes (graphile would otherwise wait 4 hours), wake a delivery task if anything is due — a
 * lease that ran out after a crash, a wake-up that was lost — disable endpoints failing past
 * ENDPOINT_DISABLE_AFTER, raise endpoint.failing for streaks past ALERT_FAILING_AFTER (even when no
 * attempt is due to notice), keep active recovery runs fed and running erasures going, drop expired
 * idempotency keys, fold stats rollup rows a worker left appended (workers fold their own while
 * they deliver), and apply retention (lib/retention) within its time budget. What the run did is
 * recorded in sweep_runs, an error included (and then thrown, for graphile's log).
 */
export async function sweep({ ctx }: { ctx: Ctx }): Promise<SweepResult> {
  const { config } = ctx;
  // Outside any transaction: each part opens its own.
  const sql = ctx.sql as Sql;
  const startedAt = new Date();
  let retention: SweepResult["retention"] = { removed: {}, more: false };
  try {
    const dead = await sql<{ id: string }[]>`
      delete from workers where heartbeat_at < now() - ${DEAD_WORKER_AFTER_MS} * interval '1 millisecond' returning id`;
    const deadWorkers = dead.map((w) => w.id);
    if (deadWorkers.length > 0) await sql`select graphile_worker.force_unlock_workers(${deadWorkers}::text[])`;
    const [due] = await sql<{ due: boolean }[]>`
      select exists(select 1 from delivery_queue where next_attempt_at <= now()) as due`;
    if (due?.due) await wakeDeliveries(sql);
    await wakeActiveRecoveries(sql);
    await wakeStrandedErasures(sql);
    const expired = await sql`
      delete from idempotency_keys where key in (select key from idempotency_keys where expires_at < now() limit 10000)`;
    // The Svix surface's kept answers (lib/svix/idempotency.ts), by the same rule.
    const expiredSvix = await sql`
      delete from api_idempotency where key_hash in (select key_hash from api_idempotency where expires_at < now() limit 10000)`;
    await compactStats({ ctx });
    const autoDisabled = await autoDisableFailingEndpoints(sql, { disableAfterMs: config.ENDPOINT_DISABLE_AFTER });
    // A polling endpoint nobody polled is failing as one whose attempts fail is: marked, then alerted with them.
    await markUnpolledEndpoints(sql, { failingAfterMs: config.ALERT_FAILING_AFTER });
    const failing = await alertFailingEndpoints(sql, { failingAfterMs: config.ALERT_FAILING_AFTER });
    retention = await runRetention({ ctx, startedAt: startedAt.getTime() });
    await recordSweepRun({ ctx, run: { startedAt, removed: retention.removed, more: retention.more, error: null } });
    return { deadWorkers, woke: Boolean(due?.due), expiredKeys: expired.count + expiredSvix.count, autoDisabled, failing, retention };
  } catch (error) {
    await recordSweepRun({ ctx, run: { startedAt, removed: retention.removed, more: retention.more, error: String(error) } }).catch(() => {});
    throw error;
  }
}
