import { sql } from "drizzle-orm";
import type { Ctx } from "../context";
import { QUEUE_KINDS } from "../db/schema/messages";
import type { Backlog } from "./schemas";

/** Past this many, the overview says "more than": counting a backlog of millions row by row would cost what it measures. */
export const BACKLOG_COUNT_CAP = 10_000;

/**
 * The overview's backlog figures, read from the queue (rows of work still to do), never from the
 * attempts. Both use delivery_queue_due_idx (kind, next_attempt_at): the count walks at most the
 * cap's worth of one kind's entries, the oldest due is the first entry of each kind (timed with a
 * million rows queued: bench/results/2026-12-01-g-log-queries.md). Operators only: it counts every consumer's work.
 */
export async function readBacklog({ db }: Ctx): Promise<Backlog> {
  const kinds = Object.values(QUEUE_KINDS);
  const rows = await db.execute<{ pending: number; oldest: string | null }>(sql`
    select
      (select count(*)::int from (select 1 from delivery_queue where kind = webhook_admin_queue_kind('scheduled') limit ${BACKLOG_COUNT_CAP + 1}) capped) as pending,
      (select min(first) from unnest(array[${sql.join(
        kinds.map((k) => sql`(select next_attempt_at from delivery_queue where kind = ${k} order by next_attempt_at limit 1)`),
        sql`, `,
      )}]) as first where first <= now()) as oldest`);
  const row = rows[0]!;
  return {
    pending: Math.min(row.pending, BACKLOG_COUNT_CAP),
    pending_capped: row.pending > BACKLOG_COUNT_CAP,
    oldest_due_at: row.oldest === null ? null : new Date(row.oldest).toISOString(),
  };
}
