import type { Sql } from "../db/client";
import { asTextArray } from "../db/arrays";
import { raiseAlerts } from "../alerts/raise-alert";
import { wakeDeliveriesAt } from "../jobs";
import { QUEUE_KINDS, type AttemptTrigger, type DeliveryStatus } from "../db/schema";
import type { TransactionSql } from "postgres";
import { withStatsRollup } from "../stats/append-rollup";
import { RESULT_WINDOW, stopRecovery, tripsStopRule, type StopRuleInput } from "../recoveries/stop-recovery";

export type AttemptOutcome = {
  /** Fixed when the attempt ends, so a write retried after a lost commit answer logs it once. */
  attemptId: string;
  deliveryId: string;
  messageId: string;
  endpointId: string;
  consumerId: string;
  attemptNumber: number;
  trigger: AttemptTrigger;
  success: boolean;
  statusCode: number | null;
  error: string | null;
  errorDetail: string | null;
  responseBody: string;
  durationMs: number;
  requestHeaders: Record<string, string>;
  /** Where it was sent: the endpoint's URL at the time. */
  url: string;
  finishedAt: Date;
  /** The claim's lease on the queue row; an outcome moves the delivery only while this still holds. */
  leaseToken?: string;
  /** Scheduled attempts move the delivery along its schedule; manual and recovery ones do not (null). */
  next: { status: DeliveryStatus; attemptAt: Date | null } | null;
};

type EndpointTally = { id: string; successAt: Date | null; failuresAfter: number; firstFailureAfter: Date | null; lastFailureAt: Date | null };

/** Folds a batch's outcomes, in finishing order, into each endpoint's failure-streak change. */
export function tallyEndpoints(outcomes: AttemptOutcome[]): EndpointTally[] {
  const tallies = new Map<string, EndpointTally>();
  for (const outcome of [...outcomes].sort((a, b) => a.finishedAt.getTime() - b.finishedAt.getTime())) {
    const tally = tallies.get(outcome.endpointId) ?? { id: outcome.endpointId, successAt: null, failuresAfter: 0, firstFailureAfter: null, lastFailureAt: null };
    if (outcome.success) {
      tally.successAt = outcome.finishedAt;
      tally.failuresAfter = 0;
      tally.firstFailureAfter = null;
    } else {
      tally.failuresAfter += 1;
      tally.firstFailureAfter ??= outcome.finishedAt;
      tally.lastFailureAt = outcome.finishedAt;
    }
    tallies.set(outcome.endpointId, tally);
  }
  // Endpoint rows are locked in id order by every writer, so concurrent batches cannot deadlock.
  return [...tallies.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
}

type ExhaustedRow = {
  id: string;
  endpoint_id: string;
  message_id: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  exhausted: boolean;
};

export type HealthPolicy = { failureThreshold: number; openForMs: number; defaultConcurrency: number };

/**
 * Writes a batch's attempts, delivery states and endpoint failure streaks in one transaction, and
 * in the same transaction the wake-ups for the retries it scheduled. The lease token guards every
 * outcome: a worker whose lease ran out (and whose queue row was claimed again) writes its attempt
 * to the log but no longer moves the delivery.
 */
export async function recordOutcomes(
  sql: Sql,
  input: {
    outcomes: AttemptOutcome[];
    health: HealthPolicy;
    /** Off only to measure what the stats rollup costs (STATS_ROLLUP=off, a benchmarking switch). */
    rollup?: boolean;
  },
): Promise<{ unparked: number }> {
  const { outcomes, health } = input;
  if (outcomes.length === 0) return { unparked: 0 };
  const freed = new Map<string, number>();
  // Every attempt held one of its endpoint's slots.
  for (const o of outcomes) freed.set(o.endpointId, (freed.get(o.endpointId) ?? 0) + 1);
  const col = <T>(pick: (o: AttemptOutcome) => T) => outcomes.map(pick);
  const tallies = tallyEndpoints(outcomes);
  let unparkQuery: Promise<{ count: number }> | undefined;
  await sql.begin(async (tx) => {
    // Before the endpoint rows are locked below: deliveries are locked before endpoints everywhere.
    const requested = outcomes.filter((o) => !o.next);
    if (requested.length > 0) await recordRequestedOutcomes(tx, requested);
    let exhausted: Promise<ExhaustedRow[]> = Promise.resolve([]);
    const rows = tx`
      select * from unnest(
        ${col((o) => o.attemptId)}::text[], ${col((o) => o.deliveryId)}::text[], ${col((o) => o.messageId)}::text[],
        ${col((o) => o.endpointId)}::text[], ${col((o) => o.consumerId)}::text[], ${asTextArray(col((o) => o.attemptNumber))}::text[]::int[],
        ${col((o) => o.trigger)}::text[], ${asTextArray(col((o) => o.success))}::text[]::bool[], ${asTextArray(col((o) => o.statusCode))}::text[]::int[],
        ${col((o) => o.error) as string[]}::text[], ${col((o) => o.errorDetail) as string[]}::text[],
        ${col((o) => o.responseBody)}::text[], ${asTextArray(col((o) => o.durationMs))}::text[]::int[],
        ${asTextArray(col((o) => JSON.stringify(o.requestHeaders)))}::text[]::jsonb[], ${asTextArray(col((o) => o.finishedAt))}::text[]::timestamptz[],
        ${col((o) => o.url)}::text[])`;
    const insertAttempts = tx`
      insert into attempts (id, delivery_id, message_id, endpoint_id, consumer_id, attempt_number, trigger, success,
                            status_code, error, error_detail, response_body, duration_ms, request_headers, created_at, url)
      ${rows}
      on conflict (id) do nothing`;
    const queries: Promise<unknown>[] = [input.rollup === false ? insertAttempts : withStatsRollup(tx, insertAttempts)];
    const scheduled = outcomes.filter((o) => o.next);
    if (scheduled.length > 0) {
      // The queue row goes when the delivery ends and moves to the retry's time otherwise — only
      // while this claim's lease holds; the delivery's own row then follows (a HOT update).
      exhausted = tx<ExhaustedRow[]>`
        with v as (
          select * from unnest(
            ${scheduled.map((o) => o.deliveryId)}::text[], ${scheduled.map((o) => o.next!.status)}::text[],
            ${asTextArray(scheduled.map((o) => o.next!.attemptAt))}::text[]::timestamptz[], ${asTextArray(scheduled.map((o) => o.statusCode))}::text[]::int[],
            ${scheduled.map((o) => o.error) as string[]}::text[], ${asTextArray(scheduled.map((o) => o.finishedAt))}::text[]::timestamptz[],
            ${scheduled.map((o) => o.leaseToken ?? null) as string[]}::text[]
          ) as v(id, status, next_at, code, error, at, token)
        ),
        ended as (
          delete from delivery_queue q using v
          where q.delivery_id = v.id and q.kind = 0 and q.lease_token = v.token
            -- A resend or recovery attempt may have succeeded while this one was out: then it ends too.
            and (v.status <> 'pending' or exists (select 1 from deliveries d where d.id = v.id and d.status = 'succeeded'))
          returning q.delivery_id
        ),
        retried as (
          update delivery_queue q set next_attempt_at = v.next_at, lease_token = null
          from v where q.delivery_id = v.id and q.kind = 0 and q.lease_token = v.token and v.status = 'pending'
            and not exists (select 1 from deliveries d where d.id = v.id and d.status = 'succeeded')
          returning q.delivery_id
        )
        update deliveries d set
          status = case when d.status = 'succeeded' then d.status else v.status end, attempts = d.attempts + 1,
          scheduled_attempts = d.scheduled_attempts + 1, next_attempt_at = case when d.status = 'succeeded' then null else v.next_at end,
          last_status_code = v.code, last_error = v.error, last_attempt_at = v.at, updated_at = now()
        from v
        where d.id = v.id and d.id in (select delivery_id from ended union all select delivery_id from retried)
        returning d.id, d.endpoint_id, d.message_id, d.attempts, d.last_status_code, d.last_error, v.status = 'failed' and d.status = 'failed' as exhausted`;
      queries.push(exhausted);
    }
    // The failure streak drives the circuit breaker: reaching the threshold (or a failed probe)
    // opens it for CIRCUIT_OPEN_FOR; any success closes it.
    const endpointChanges = tx<{ id: string; recovered: boolean; was_failing_since: Date | null }[]>`
      with v as (
        select * from unnest(
          ${tallies.map((t) => t.id)}::text[], ${asTextArray(tallies.map((t) => t.successAt))}::text[]::timestamptz[],
          ${asTextArray(tallies.map((t) => t.failuresAfter))}::text[]::int[], ${asTextArray(tallies.map((t) => t.firstFailureAfter))}::text[]::timestamptz[],
          ${asTextArray(tallies.map((t) => t.lastFailureAt))}::text[]::timestamptz[]
        ) as v(id, success_at, failures_after, first_failure_after, last_failure_at)
      ),
      -- Rows locked in id order, as the claim locks them, so the two never deadlock. A healthy
      -- endpoint's row is left alone on most batches: rewriting it for every success would make
      -- every batch to a busy endpoint queue on one row lock.
      locked as (
        select e.id, e.failing_alerted_at, e.failing_since from endpoints e join v on v.id = e.id
        where v.failures_after > 0 or e.consecutive_failures <> 0 or e.failing_since is not null
           or e.failing_alerted_at is not null or e.circuit_open_until is not null or e.last_success_at is null
           or e.last_success_at < v.success_at - interval '5 seconds'
        order by e.id
        for update of e
      )
      update endpoints e set
        consecutive_failures = case when v.success_at is not null then v.failures_after else e.consecutive_failures + v.failures_after end,
        circuit_open_until = case
          when v.failures_after > 0 and (case when v.success_at is not null then v.failures_after
                                          else e.consecutive_failures + v.failures_after end) >= ${health.failureThreshold}
            then now() + ${health.openForMs} * interval '1 millisecond'
          when v.success_at is not null then null
          else e.circuit_open_until end,
        failing_since = case
          when v.failures_after = 0 then null
          when v.success_at is not null then v.first_failure_after
          else coalesce(e.failing_since, v.first_failure_after) end,
        -- A success ends the streak endpoint.failing was raised for: that is endpoint.recovered.
        failing_alerted_at = case when v.success_at is not null then null else e.failing_alerted_at end,
        last_success_at = coalesce(v.success_at, e.last_success_at),
        last_failure_at = coalesce(v.last_failure_at, e.last_failure_at)
      from v, locked
      where e.id = v.id and locked.id = e.id
      returning e.id, v.success_at is not null and locked.failing_alerted_at is not null as recovered, locked.failing_since as was_failing_since`;
    queries.push(endpointChanges);
    // Slots freed at an endpoint go to deliveries parked waiting for one (as many as are free).
    unparkQuery = tx`
      -- Truncated: the column keeps milliseconds, and now() rounded up would be due only after the claim that follows.
      update delivery_queue q set parked = false, next_attempt_at = date_trunc('milliseconds', now())
      from (
        select p.delivery_id, p.kind
        from unnest(${tallies.map((t) => t.id)}::text[], ${tallies.map((t) => String(freed.get(t.id) ?? 0))}::text[]::int[])
          as v(endpoint_id, freed)
        join endpoints e on e.id = v.endpoint_id and e.state = 'active'
          -- Most outcomes free a slot nobody waits for: skip counting the endpoint's leases then.
          and exists (select 1 from delivery_queue w where w.endpoint_id = v.endpoint_id and w.parked)
        cross join lateral (
          select delivery_id, kind from delivery_queue p
          where p.endpoint_id = v.endpoint_id and p.parked
          -- Live work first: a recovery item never takes the slot a scheduled delivery waits for.
          order by p.kind, p.next_attempt_at
          limit greatest(v.freed, coalesce(e.max_concurrency, ${health.defaultConcurrency}) - (
            select count(*) from delivery_queue l
            where l.endpoint_id = v.endpoint_id and l.lease_token is not null and l.next_attempt_at > now()))
          for update skip locked
        ) p
      ) x
      where q.delivery_id = x.delivery_id and q.kind = x.kind`;
    queries.push(unparkQuery);
    const retryTimes = scheduled.flatMap((o) => (o.next!.status === "pending" && o.next!.attemptAt ? [o.next!.attemptAt.getTime()] : []));
    const retryWake = wakeDeliveriesAt(tx, retryTimes);
    if (retryWake) queries.push(retryWake);
    await Promise.all(queries);
    // Alerts commit with the change that raised them, or not at all.
    await raiseAlerts({ sql: tx }, [
      ...(await exhausted)
        .filter((d) => d.exhausted)
        .map((d) => ({
          kind: "message.attempt.exhausted" as const,
          endpointId: d.endpoint_id,
          data: { message_id: d.message_id, delivery_id: d.id, attempts: d.attempts, last_status_code: d.last_status_code, last_error: d.last_error },
        })),
      ...(await endpointChanges)
        .filter((e) => e.recovered)
        .map((e) => ({ kind: "endpoint.recovered" as const, endpointId: e.id, data: { failing_since: e.was_failing_since?.toISOString() ?? null } })),
    ]);
  });
  return { unparked: (await unparkQuery)?.count ?? 0 };
}

/**
 * Manual resends and recovery items: the attempt was asked for, so it never moves the schedule. A
 * success ends the delivery whatever its state (and its other queue rows go, scheduled or not); a
 * failed recovery attempt leaves the delivery failed; a failed resend leaves it as it was. Queue
 * rows are locked first (as everywhere), then deliveries, then the recovery runs (in id order),
 * then their items. Only an outcome whose lease still holds moves anything but the attempt log.
 * A recovery whose recent results trip its stop rule pauses in the same transaction.
 */
async function recordRequestedOutcomes(tx: TransactionSql, outcomes: AttemptOutcome[]): Promise<void> {
  const kindOf = (o: AttemptOutcome) => (o.trigger === "recovery" ? QUEUE_KINDS.recovery : QUEUE_KINDS.manual);
  const col = (pick: (o: AttemptOutcome) => string | number | boolean | Date | null) => asTextArray(outcomes.map(pick));
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
      where v.success and q.delivery_id = gone.delivery_id and q.kind <> gone.kind and q.kind <> 1
        and (q.lease_token is null or q.next_attempt_at <= now())
      returning 1
    )
    select gone.*, (select count(*) from others) as others from gone`;
  if (held.length === 0) return;
  const key = (deliveryId: string, kind: number) => `${deliveryId}:${kind}`;
  const heldKeys = new Set(held.map((h) => key(h.delivery_id, h.kind)));
  const moving = outcomes.filter((o) => heldKeys.has(key(o.deliveryId, kindOf(o))));
  const mcol = (pick: (o: AttemptOutcome) => string | number | boolean | Date | null) => asTextArray(moving.map(pick));
  await tx`
    update deliveries d set
      attempts = d.attempts + 1,
      status = case when v.success then 'succeeded' when v.kind = 2 and d.status in ('failed', 'canceled') then 'failed' else d.status end,
      next_attempt_at = case when v.success then null else d.next_attempt_at end,
      last_status_code = v.code, last_error = v.error, last_attempt_at = v.at, updated_at = now()
    from unnest(${mcol((o) => o.deliveryId)}::text[], ${mcol(kindOf)}::text[]::smallint[], ${mcol((o) => o.success)}::text[]::bool[],
                ${mcol((o) => o.statusCode)}::text[]::int[], ${mcol((o) => o.error)}::text[], ${mcol((o) => o.finishedAt)}::text[]::timestamptz[])
      as v(id, kind, success, code, error, at)
    where d.id = v.id`;
  const recoveryOf = new Map(held.filter((h) => h.recovery_id).map((h) => [h.delivery_id, h.recovery_id!]));
  const items = moving.filter((o) => kindOf(o) === QUEUE_KINDS.recovery && recoveryOf.has(o.deliveryId));
  if (items.length === 0) return;
  const icol = (pick: (o: AttemptOutcome) => string | number | boolean | Date | null) => asTextArray(items.map(pick));
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
