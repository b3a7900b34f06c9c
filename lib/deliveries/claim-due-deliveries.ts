import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";

export type ClaimedDelivery = {
  id: string;
  message_id: string;
  endpoint_id: string;
  consumer_id: string;
  attempts: number;
  scheduled_attempts: number;
  created_at: Date;
  payload: string;
  url: string;
  headers: Record<string, string>;
};

/**
 * Leases up to `limit` due deliveries of active endpoints. The lease is the row's next_attempt_at
 * pushed to the lease's end, with a token: if the worker dies, the delivery simply comes due again
 * when the lease runs out, and a late outcome from the old holder no longer matches the token.
 * SKIP LOCKED lets any number of workers claim side by side without waiting on each other.
 */
export async function claimDueDeliveries(sql: Sql, input: { limit: number; leaseMs: number }) {
  const token = randomUUID();
  const rows = await sql<ClaimedDelivery[]>`
    with due as (
      select d.id
      from deliveries d
      join endpoints e on e.id = d.endpoint_id
      where d.status = 'pending' and d.next_attempt_at <= now() and e.state = 'active'
      order by d.next_attempt_at
      limit ${input.limit}
      for update of d skip locked
    )
    update deliveries d
    set next_attempt_at = now() + ${input.leaseMs} * interval '1 millisecond', lease_token = ${token}, updated_at = now()
    from due, messages m, endpoints e
    where d.id = due.id and m.id = d.message_id and e.id = d.endpoint_id
    returning d.id, d.message_id, d.endpoint_id, d.consumer_id, d.attempts, d.scheduled_attempts, d.created_at,
              m.payload, e.url, e.headers`;
  return { token, deliveries: rows as ClaimedDelivery[] };
}
