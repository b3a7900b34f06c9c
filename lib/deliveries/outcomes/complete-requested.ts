import type { TransactionSql } from "postgres";
import { QUEUE_KINDS } from "../../db/schema";
import { RESULT_WINDOW, stopRecovery, tripsStopRule, type StopRuleInput } from "../../recoveries/stop-recovery";
import { idRange } from "../../ids";
import { columnsOf, type AttemptOutcome } from "./types";

/**
 * Manual resends and recovery items: the attempt was asked for, so it never moves the schedule. A
 * success ends the delivery whatever its state (and its other queue rows go, scheduled or not); a
 * failed recovery attempt leaves the delivery failed; a failed resend leaves it as it was. Queue
 * rows are locked first (as everywhere), then deliveries, then the recovery runs (in id order),
 * then their items. Only an outcome whose lease still holds moves anything but the attempt log.
 * A recovery whose recent results trip its stop rule pauses in the same transaction.
 */
export async function completeRequested(tx: TransactionSql, outcomes: AttemptOutcome[]): Promise<void> {
  const kindOf = (o: AttemptOutcome) => (o.trigger === "recovery" ? QUEUE_KINDS.recovery : QUEUE_KINDS.manual);
  const col = columnsOf(outcomes);
  const held = await tx<{ delivery_id: string; kind: number; recovery_id: string | null }[]>`
    with v as (
      select * from unnest(${col((o) => o.deliveryId)}::text[], ${col(kindOf)}::text[]::smallint[], ${col((o) => o.leaseToken ?? null)}::text[],
                           ${col((o) => o.success)}::text[]::bool[]) as v(id, kind, token, success)
    ),
    gone as (
      delete from delivery_queue q using v
      where q.delivery_id = v.id and q.kind = v.kind and q.lease_token = v.token
      returning q.delivery_id, q.kind, q.recovery_id
    ),
    others as (
      delete from delivery_queue q using gone join v on v.id = gone.delivery_id and v.kind = gone.kind
      -- A resend someone asked for still goes; the schedule and a recovery item are done with.
      -- Only rows no attempt is out for: a leased row still holds its endpoint slot, and its own
      -- outcome ends it (the scheduled outcome sees the delivery succeeded and stops there).
      where v.success and q.delivery_id = gone.delivery_id and q.kind <> gone.kind and q.kind <> webhook_admin_queue_kind('manual')
        and (q.lease_token is null or q.next_attempt_at <= now())
      returning 1
    )
    select gone.*, (select count(*) from others) as others from gone`;
  if (held.length === 0) return;
  const key = (deliveryId: string, kind: number) => `${deliveryId}:${kind}`;
  const heldKeys = new Set(held.map((h) => key(h.delivery_id, h.kind)));
  const moving = outcomes.filter((o) => heldKeys.has(key(o.deliveryId, kindOf(o))));
  const mcol = columnsOf(moving);
  const [first, last] = idRange(moving.map((o) => o.deliveryId));
  await tx`
    update deliveries d set
      attempts = d.attempts + 1,
      status = case when v.success then 'succeeded' when v.kind = webhook_admin_queue_kind('recovery') and d.status in ('failed', 'canceled') then 'failed' else d.status end,
      next_attempt_at = case when v.success then null else d.next_attempt_at end,
      last_status_code = v.code, last_error = v.error, last_attempt_at = v.at, updated_at = now()
    from unnest(${mcol((o) => o.deliveryId)}::text[], ${mcol(kindOf)}::text[]::smallint[], ${mcol((o) => o.success)}::text[]::bool[],
                ${mcol((o) => o.statusCode)}::text[]::int[], ${mcol((o) => o.error)}::text[], ${mcol((o) => o.finishedAt)}::text[]::timestamptz[])
      as v(id, kind, success, code, error, at)
    where d.id = v.id and d.id between ${first} and ${last}`;
  const recoveryOf = new Map(held.filter((h) => h.recovery_id).map((h) => [h.delivery_id, h.recovery_id!]));
  const items = moving.filter((o) => kindOf(o) === QUEUE_KINDS.recovery && recoveryOf.has(o.deliveryId));
  if (items.length === 0) return;
  const icol = columnsOf(items);
  const runs = [...new Set(items.map((o) => recoveryOf.get(o.deliveryId)!))].sort();
  await tx`select 1 from recoveries where id = any(${runs}) order by id for update`;
  const moved = await tx<(StopRuleInput & { id: string; succeeded: number; failed: number })[]>`
    with v as (
      select * from unnest(${icol((o) => recoveryOf.get(o.deliveryId)!)}::text[], ${icol((o) => o.deliveryId)}::text[],
                           ${icol((o) => o.success)}::text[]::bool[], ${icol((o) => o.attemptId)}::text[],
                           ${icol((o) => o.statusCode)}::text[]::int[], ${icol((o) => o.error)}::text[], ${icol((o) => o.finishedAt)}::text[]::timestamptz[])
        as v(recovery_id, delivery_id, success, attempt_id, code, error, at)
    ),
    done as (
      update recovery_items i set outcome = case when v.success then 'succeeded' else 'failed' end,
        attempt_id = v.attempt_id, status_code = v.code, error = v.error, updated_at = now()
      from v where i.recovery_id = v.recovery_id and i.delivery_id = v.delivery_id and i.outcome = 'queued'
      returning i.recovery_id, v.success, v.at
    ),
    counts as (
      select recovery_id, count(*) filter (where success)::int as s, count(*) filter (where not success)::int as f,
             string_agg(case when success then 's' else 'f' end, '' order by at) as results
      from done group by recovery_id
    )
    update recoveries r set queued = r.queued - c.s - c.f, succeeded = r.succeeded + c.s, failed = r.failed + c.f,
      recent = right(r.recent || c.results, ${RESULT_WINDOW}), updated_at = now()
    from counts c where r.id = c.recovery_id
    returning r.id, r.state, r.recent, r.expected, r.skipped, r.succeeded, r.failed, (r.options->>'stop_if_failure_ratio')::float8 as threshold`;
  // The stop rule is applied here, as the results come in: at a high rate a tick later would be
  // dozens of attempts later.
  for (const run of moved) {
    if (tripsStopRule(run)) await stopRecovery(tx, run.id, "failure_ratio", { succeeded: run.succeeded, failed: run.failed, recent: run.recent });
  }
}
