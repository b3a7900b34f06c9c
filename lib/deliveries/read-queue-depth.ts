import type { Sql } from "../db/client";
import { QUEUE_KINDS, type QueueKind } from "../db/schema/messages";

/**
 * Each count walks at most this many index entries, so a scrape costs the same with a backlog of
 * millions: a figure at the cap means "at least this many".
 */
export const QUEUE_DEPTH_CAP = 10_000;

export type QueueDepth = {
  kind: QueueKind;
  /** Waiting for a claim now: due, not parked (a lease that ran out is due again). */
  due: number;
  /** Waiting for a slot of its endpoint (cap, rate, circuit); woken by that endpoint's next outcome. */
  parked: number;
  /** Due later: a retry's or a first attempt's time still ahead. */
  later: number;
  /** Claimed by a worker now, lease not run out. */
  leased: number;
  /** Seconds the earliest due, unparked row has waited; 0 when none is due. */
  oldest_due_seconds: number;
};

/**
 * The queue's depth per kind and state, for /metrics: one statement of bounded index scans.
 * delivery_queue_due_idx (kind, next_attempt_at) is walked from each side of now() for at most
 * QUEUE_DEPTH_CAP entries, which are sorted into due (before now, unparked) and later (after now,
 * neither parked nor leased); parked and leased rows are counted on their partial indexes
 * (delivery_queue_parked_idx, delivery_queue_leased_idx), at most QUEUE_DEPTH_CAP per kind; the
 * oldest due is the first unparked entry of the due index per kind.
 */
export async function readQueueDepth(sql: Sql): Promise<QueueDepth[]> {
  const cap = QUEUE_DEPTH_CAP;
  const kinds = Object.values(QUEUE_KINDS);
  const rows = await sql<{ kind: number; due: number; parked: number; later: number; leased: number; oldest: number | null }[]>`
    with kinds(kind) as (select unnest(${kinds}::smallint[])),
    parked as (select kind, count(*)::int as n from (select kind from delivery_queue where parked limit ${cap * kinds.length}) p group by kind),
    leased as (select kind, count(*)::int as n from (select kind from delivery_queue
                 where lease_token is not null and next_attempt_at > now() limit ${cap * kinds.length}) l group by kind)
    select k.kind,
      (select count(*) filter (where not s.parked)::int from (select q.parked from delivery_queue q
         where q.kind = k.kind and q.next_attempt_at <= now() order by q.next_attempt_at limit ${cap}) s) as due,
      coalesce((select n from parked where parked.kind = k.kind), 0) as parked,
      (select count(*) filter (where not s.parked and s.lease_token is null)::int from (select q.parked, q.lease_token from delivery_queue q
         where q.kind = k.kind and q.next_attempt_at > now() order by q.next_attempt_at limit ${cap}) s) as later,
      coalesce((select n from leased where leased.kind = k.kind), 0) as leased,
      extract(epoch from now() - (select q.next_attempt_at from delivery_queue q
         where q.kind = k.kind and q.next_attempt_at <= now() and not q.parked order by q.next_attempt_at limit 1))::float8 as oldest
    from kinds k order by k.kind`;
  return rows.map((r) => ({
    kind: r.kind as QueueKind,
    due: r.due,
    parked: Math.min(r.parked, cap),
    later: r.later,
    leased: Math.min(r.leased, cap),
    oldest_due_seconds: Math.max(0, r.oldest ?? 0),
  }));
}
