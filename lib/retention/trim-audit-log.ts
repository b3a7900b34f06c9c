import type { Ctx } from "../context";
import { addCounts, type Counts } from "./counts";
import { drain } from "./drain";

/** Rows removed per statement. */
export const AUDIT_BATCH = 5_000;

/**
 * Removes audit events and alert log rows older than AUDIT_RETENTION, oldest first, AUDIT_BATCH
 * rows per statement (by their created_at indexes), until none is left or `deadline` passes. An
 * alert still being sent (`pending`) stays until it is settled.
 */
export async function trimAuditLog({ ctx, deadline, batchSize = AUDIT_BATCH }: { ctx: Ctx; deadline: number; batchSize?: number }) {
  const { sql, config } = ctx;
  const cutoff = sql`now() - ${config.AUDIT_RETENTION} * interval '1 millisecond'`;
  const removed: Counts = {};
  const audit = await drain(
    async () => {
      const done = await sql`
        delete from audit_events where id in (
          select id from audit_events where created_at < ${cutoff} order by created_at limit ${batchSize})`;
      return { seen: done.count, removed: { audit_events: done.count } };
    },
    batchSize,
    deadline,
  );
  addCounts(removed, audit.removed);
  if (audit.more) return { removed, more: true };
  const alerts = await drain(
    async () => {
      const done = await sql`
        delete from alerts where id in (
          select id from alerts where created_at < ${cutoff} and status <> 'pending' order by created_at limit ${batchSize})`;
      return { seen: done.count, removed: { alerts: done.count } };
    },
    batchSize,
    deadline,
  );
  addCounts(removed, alerts.removed);
  return { removed, more: alerts.more };
}
