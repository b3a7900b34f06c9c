import type { TransactionSql } from "postgres";
import { withStatsRollup } from "../../stats/append-rollup";
import { columnsOf, type AttemptOutcome } from "./types";

/**
 * Every attempt of the batch into the attempt log and its minute into the stats rollup, in one
 * statement, whatever became of its delivery: a lease that ran out still logs. An outcome written
 * twice (a commit whose answer was lost) logs once. An outcome of a deleted consumer's delivery logs
 * nothing: written after its erasure went past its attempts (a worker held up longer than
 * DELIVERY_TIMEOUT and the erasure's margin), it would bring back rows the erasure removed — the
 * attempt, with its response, and its rollup minute.
 */
export function logAttempts(tx: TransactionSql, outcomes: AttemptOutcome[]) {
  return withStatsRollup(tx, insertAttempts(tx, outcomes));
}

/** The attempt log's insert alone, which logAttempts extends with the rollup (bench part f measures one against the other). */
export function insertAttempts(tx: TransactionSql, outcomes: AttemptOutcome[]) {
  const col = columnsOf(outcomes);
  const rows = tx`
    select * from unnest(
      ${col((o) => o.attemptId)}::text[], ${col((o) => o.deliveryId)}::text[], ${col((o) => o.messageId)}::text[],
      ${col((o) => o.endpointId)}::text[], ${col((o) => o.consumerId)}::text[], ${col((o) => o.attemptNumber)}::text[]::int[],
      ${col((o) => o.trigger)}::text[], ${col((o) => o.success)}::text[]::bool[], ${col((o) => o.statusCode)}::text[]::int[],
      ${col((o) => o.error)}::text[], ${col((o) => o.errorDetail)}::text[],
      ${col((o) => o.responseBody)}::text[], ${col((o) => o.durationMs)}::text[]::int[],
      ${col((o) => JSON.stringify(o.requestHeaders))}::text[]::jsonb[], ${col((o) => o.finishedAt)}::text[]::timestamptz[],
      ${col((o) => o.url)}::text[])
      as r(id, delivery_id, message_id, endpoint_id, consumer_id, attempt_number, trigger, success, status_code, error,
           error_detail, response_body, duration_ms, request_headers, created_at, url)
    where exists (select 1 from consumers c where c.id = r.consumer_id and c.deleted_at is null)`;
  return tx`
    insert into attempts (id, delivery_id, message_id, endpoint_id, consumer_id, attempt_number, trigger, success,
                          status_code, error, error_detail, response_body, duration_ms, request_headers, created_at, url)
    ${rows}
    on conflict (id) do nothing`;
}
