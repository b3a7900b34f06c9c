import type { SqlOrTx } from "../db/client";
import { QUEUE_KINDS } from "../db/schema/messages";
import { notifyDue } from "../jobs";

/**
 * An endpoint whose rate limit changes: the rows the claim booked past the old rate's budget
 * (claim/apply-limits.sql: each parked until its turn at that rate) are due again at their own
 * time — a scheduled attempt at its retry's, anything else now — so that the new rate applies to
 * them at once, not after the old bookings run out (a rate raised to drain a backlog faster would
 * otherwise change nothing for it). Rows waiting for a slot, leased, or held in an ordered line
 * are not booked and stay as they are. Before the endpoint's row in its transaction, as outcome
 * writes lock them; the caller clears endpoints.rate_booked_until.
 */
export async function releaseRateBookings(sql: SqlOrTx, endpointId: string): Promise<void> {
  const released = await sql`
    update delivery_queue q
    set next_attempt_at = case when q.kind = ${QUEUE_KINDS.scheduled} then greatest(d.next_attempt_at, date_trunc('milliseconds', now()))
                               else date_trunc('milliseconds', now()) end
    from deliveries d
    where q.endpoint_id = ${endpointId} and d.id = q.delivery_id
      and not q.parked and q.lease_token is null and q.next_attempt_at > now() and q.next_attempt_at <> 'infinity'
      -- A scheduled attempt's own retry time is the delivery's: a row held later than that was booked.
      and (q.kind <> ${QUEUE_KINDS.scheduled} or q.next_attempt_at > d.next_attempt_at)`;
  if (released.count > 0) await notifyDue(sql);
}
