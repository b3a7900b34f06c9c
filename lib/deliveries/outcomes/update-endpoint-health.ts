import type { TransactionSql } from "postgres";
import { columnsOf, type AttemptOutcome, type EndpointTally, type HealthPolicy } from "./types";

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

/**
 * The failure streak drives the circuit breaker: reaching the threshold (or a failed probe) opens
 * it for CIRCUIT_OPEN_FOR; any success closes it. Returns the endpoints changed, `recovered` for
 * those whose streak endpoint.failing was raised for has ended.
 */
export function updateEndpointHealth(tx: TransactionSql, tallies: EndpointTally[], health: HealthPolicy) {
  const col = columnsOf(tallies);
  return tx<{ id: string; recovered: boolean; was_failing_since: Date | null }[]>`
    with v as (
      select * from unnest(
        ${col((t) => t.id)}::text[], ${col((t) => t.successAt)}::text[]::timestamptz[],
        ${col((t) => t.failuresAfter)}::text[]::int[], ${col((t) => t.firstFailureAfter)}::text[]::timestamptz[],
        ${col((t) => t.lastFailureAt)}::text[]::timestamptz[]
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
}
