import type { TransactionSql } from "postgres";
import { idRange } from "../../ids";
import { columnsOf, type AttemptOutcome } from "./types";

export type ExhaustedRow = {
  id: string;
  endpoint_id: string;
  message_id: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  exhausted: boolean;
};

/**
 * Scheduled attempts move their delivery along its schedule: the queue row goes when the delivery
 * ends and moves to the retry's time otherwise — only while this claim's lease holds; the
 * delivery's own row then follows (a HOT update). Returns the deliveries moved, `exhausted` for
 * those whose schedule is spent.
 */
export function completeScheduled(tx: TransactionSql, scheduled: AttemptOutcome[]) {
  const col = columnsOf(scheduled);
  const [first, last] = idRange(scheduled.map((o) => o.deliveryId));
  const values = [
    col((o) => o.deliveryId),
    col((o) => o.next!.status),
    col((o) => o.next!.attemptAt),
    col((o) => o.statusCode),
    col((o) => o.error),
    col((o) => o.finishedAt),
    col((o) => o.leaseToken ?? null),
    first,
    last,
  ];
  // Not prepared (unsafe's default): an unnamed statement is planned with its values each time, so
  // the bound on d.id prunes deliveries to the batch's days at plan time. A prepared one goes
  // generic after five executions, and a generic plan takes in every day: building it opened every
  // partition and index of deliveries three times over, on every connection (ADR 0034).
  return tx.unsafe<ExhaustedRow[]>(
    `
    with v as (
      select * from unnest($1::text[], $2::text[], $3::text[]::timestamptz[], $4::text[]::int[], $5::text[], $6::text[]::timestamptz[], $7::text[])
        as v(id, status, next_at, code, error, at, token)
    ),
    ended as (
      delete from delivery_queue q using v
      where q.delivery_id = v.id and q.kind = webhook_admin_queue_kind('scheduled') and q.lease_token = v.token
        -- A resend or recovery attempt may have succeeded while this one was out: then it ends too.
        and (v.status <> 'pending' or exists (select 1 from deliveries d where d.id = v.id and d.id between $8 and $9 and d.status = 'succeeded'))
      returning q.delivery_id
    ),
    retried as (
      update delivery_queue q set next_attempt_at = v.next_at, lease_token = null
      from v where q.delivery_id = v.id and q.kind = webhook_admin_queue_kind('scheduled') and q.lease_token = v.token and v.status = 'pending'
        and not exists (select 1 from deliveries d where d.id = v.id and d.id between $8 and $9 and d.status = 'succeeded')
      returning q.delivery_id
    )
    update deliveries d set
      status = case when d.status = 'succeeded' then d.status else v.status end, attempts = d.attempts + 1,
      scheduled_attempts = d.scheduled_attempts + 1, next_attempt_at = case when d.status = 'succeeded' then null else v.next_at end,
      last_status_code = v.code, last_error = v.error, last_attempt_at = v.at, updated_at = now()
    from v
    where d.id = v.id and d.id between $8 and $9 and d.id in (select delivery_id from ended union all select delivery_id from retried)
    returning d.id, d.endpoint_id, d.message_id, d.attempts, d.last_status_code, d.last_error, v.status = 'failed' and d.status = 'failed' as exhausted`,
    values,
  );
}
