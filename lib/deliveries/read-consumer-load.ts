import { sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { QUEUE_KINDS } from "../db/schema/messages";
import { totalsWindow } from "../stats/queries";
import type { ConsumerLoad } from "./schemas";

/** The walk over consumers with queued work stops here: a read costs the same with more of them (the figure is then of the first this many by id). */
export const CONSUMER_WALK_CAP = 10_000;
/** A listed consumer's due rows are counted up to this: past it, "at least". */
export const CONSUMER_DUE_CAP = 10_000;
/** The share of attempts is of this many last minutes. */
export const SHARE_WINDOW_MINUTES = 15;

/**
 * Who is using the engine (docs/delivery.md, "How the engine's work is shared"), for the overview
 * and /metrics: the `top` consumers whose earliest due scheduled attempt has waited longest, with
 * how many are due; and the `top` consumers by attempts over the last SHARE_WINDOW_MINUTES, with
 * their share of all attempts. Operators only: it names every consumer.
 *
 * The waits walk delivery_queue_consumer_due_idx as the claim does (claim/scan-due.sql), one index
 * descent per consumer with queued work, at most CONSUMER_WALK_CAP of them; the shares read the
 * rollup's minutes (attempt_stats and its appended rows) in the window.
 */
export async function readConsumerLoad(db: Executor, options: { top: number }): Promise<ConsumerLoad> {
  const scheduled = QUEUE_KINDS.scheduled;
  const waiting = await db.execute<{ consumer_id: string; uid: string; name: string; oldest_due_at: string; due: number }>(sql`
    with recursive walk(consumer_id, first_at, n) as (
      (select q.consumer_id, q.next_attempt_at, 1 from delivery_queue q
       where q.kind = ${scheduled} and q.consumer_id is not null order by q.consumer_id, q.next_attempt_at limit 1)
      union all
      select nx.consumer_id, nx.next_attempt_at, w.n + 1 from walk w
      cross join lateral (select q.consumer_id, q.next_attempt_at from delivery_queue q
                          where q.kind = ${scheduled} and q.consumer_id > w.consumer_id
                          order by q.consumer_id, q.next_attempt_at limit 1) nx
      where w.n < ${CONSUMER_WALK_CAP}
    ),
    top as (select w.consumer_id, w.first_at from walk w where w.first_at <= now() order by w.first_at limit ${options.top})
    select t.consumer_id, c.uid, c.name, t.first_at as oldest_due_at,
           (select count(*)::int from (select 1 from delivery_queue q
              where q.kind = ${scheduled} and q.consumer_id = t.consumer_id and q.next_attempt_at <= now() limit ${CONSUMER_DUE_CAP + 1}) d) as due
    from top t join consumers c on c.id = t.consumer_id
    order by t.first_at`);
  const { folded, pending } = totalsWindow(new Date(Date.now() - SHARE_WINDOW_MINUTES * 60_000));
  const shares = await db.execute<{ consumer_id: string; uid: string; name: string; attempts: number; total: number }>(sql`
    with src as (
      select scope as consumer_id, attempts from attempt_stats where scope like 'con\_%' and (${folded})
      union all
      select consumer_id, attempts from attempt_stats_pending where ${pending}
    ),
    per as (select consumer_id, sum(attempts)::float8 as attempts from src group by consumer_id)
    select p.consumer_id, c.uid, c.name, p.attempts, sum(p.attempts) over ()::float8 as total
    from per p join consumers c on c.id = p.consumer_id
    order by p.attempts desc, p.consumer_id limit ${options.top}`);
  const total = shares[0] ? Number(shares[0].total) : 0;
  return {
    waiting: waiting.map((row) => ({
      consumer: { id: row.consumer_id, uid: row.uid, name: row.name },
      oldest_due_at: new Date(row.oldest_due_at).toISOString(),
      due: Math.min(row.due, CONSUMER_DUE_CAP),
      due_capped: row.due > CONSUMER_DUE_CAP,
    })),
    shares: {
      window_minutes: SHARE_WINDOW_MINUTES,
      total_attempts: total,
      consumers: shares.map((row) => ({
        consumer: { id: row.consumer_id, uid: row.uid, name: row.name },
        attempts: Number(row.attempts),
        share: total > 0 ? Number(row.attempts) / total : 0,
      })),
    },
  };
}
