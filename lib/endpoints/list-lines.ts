import type { Ctx } from "../context";
import { QUEUE_KINDS } from "../db/schema";
import { findEndpointRow } from "./queries";
import type { EndpointLines } from "./schemas";

/** Queue rows read to count an endpoint's lines: the answer costs the same however long they grow. */
const LINES_COUNTED = 100_000;
const LINES_LISTED = 50;

/**
 * GET /endpoints/{id}/lines: of an ordered endpoint's lines (docs/delivery.md#ordered-delivery),
 * those with messages waiting, most waiting first, each with the message holding it — so "why is
 * nothing arriving for this customer" has an answer: the head, failing and retried, that the
 * others wait behind. Live deliveries only: a recovery's lines are its run's.
 */
export async function listLines({ ctx, id }: { ctx: Ctx; id: string }): Promise<EndpointLines> {
  const endpoint = await findEndpointRow(ctx, id);
  const kind = QUEUE_KINDS.scheduled;
  const [counts] = await ctx.sql<{ lines: number; messages: number; rows: number }[]>`
    select count(distinct line_key) filter (where held)::int as lines, count(*) filter (where held)::int as messages, count(*)::int as rows
    from (select line_key, next_attempt_at = 'infinity' as held from delivery_queue
          where endpoint_id = ${endpoint.id} and line_key is not null and kind = ${kind} limit ${LINES_COUNTED}) q`;
  const rows = await ctx.sql<
    { key: string; waiting: number; delivery_id: string; message_id: string; attempts: number; last_status_code: number | null; last_error: string | null; next_attempt_at: Date }[]
  >`
    select l.key, l.waiting, h.delivery_id, d.message_id, d.attempts, d.last_status_code, d.last_error, h.next_attempt_at
    from (select line_key as key, count(*)::int as waiting
          from (select line_key from delivery_queue
                where endpoint_id = ${endpoint.id} and line_key is not null and kind = ${kind} and next_attempt_at = 'infinity' limit ${LINES_COUNTED}) w
          group by line_key order by count(*) desc, line_key limit ${LINES_LISTED}) l
    join lateral (select q.delivery_id, q.next_attempt_at from delivery_queue q
                  where q.endpoint_id = ${endpoint.id} and q.line_key = l.key and q.kind = ${kind} and q.next_attempt_at <> 'infinity' limit 1) h on true
    join deliveries d on d.id = h.delivery_id
    order by l.waiting desc, l.key`;
  return {
    ordering: endpoint.ordering,
    lines_waiting: counts!.lines,
    messages_waiting: counts!.messages,
    capped: counts!.rows >= LINES_COUNTED,
    lines: rows.map((r) => ({
      key: r.key,
      waiting: r.waiting,
      head: {
        message_id: r.message_id,
        delivery_id: r.delivery_id,
        attempts: r.attempts,
        last_status_code: r.last_status_code,
        last_error: r.last_error,
        next_attempt_at: r.next_attempt_at.toISOString(),
      },
    })),
  };
}
