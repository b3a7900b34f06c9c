import type { SqlOrTx } from "../db/client";
import { newId } from "../ids";
import type { SchemaMark } from "./check-payloads";
import type { PreparedMessage } from "./ingest-types";

export type WriteOptions = {
  now: Date;
  firstAttemptAt: Date;
  /** A test send (one endpoint named): its messages are marked as tests. */
  isTest: boolean;
  /** The ingest span's, kept for the attempts' links; null, and no column written, unless this process traces. */
  traceparent: string | null;
  /** Force generic plans for the statement's lookups; never inside a caller's transaction, which the setting would outlive. */
  genericChecks: boolean;
  /** The deliveries to ordered endpoints, by placeOf: their lines, opened in this transaction. */
  lines?: Map<string, LinePlace>;
  /** By the item's place in the call: the schema check each message passed or was marked by (check-payloads.ts). */
  schemaMarks?: Map<number, SchemaMark>;
};

/**
 * The messages, one delivery per target endpoint and each delivery's queue row, as one statement
 * (ADR 0037). The deliveries take a key-share lock on each endpoint row in id order, as the worker's
 * outcome writes lock endpoint rows, or the two could deadlock.
 */
export function writeMessages(tx: SqlOrTx, rows: PreparedMessage[], at: WriteOptions) {
  const { now, firstAttemptAt, isTest, traceparent, genericChecks, lines, schemaMarks } = at;
  const columns = ["id", "consumer_id", "event_type", "event_id", "payload", "is_test", "created_at"] as const;
  const labelled = rows.some((r) => r.channels || r.tags);
  const filtered = rows.some((r) => r.filteredEndpointIds);
  const checked = schemaMarks !== undefined && schemaMarks.size > 0;
  const messages = tx`insert into messages ${tx(
    rows.map((r) => {
      const mark = schemaMarks?.get(r.index);
      return {
        ...r.message,
        payload: r.payload,
        is_test: isTest,
        created_at: now,
        traceparent,
        channels: r.channels,
        tags: r.tags,
        filtered_endpoint_ids: r.filteredEndpointIds,
        schema_version: mark?.version ?? null,
        // As JSON text, which the column reads as jsonb: an array of objects given as such would be sent as an array type.
        schema_violations: mark?.violations ? JSON.stringify(mark.violations) : null,
      };
    }),
    ...columns,
    ...(traceparent ? (["traceparent"] as const) : []),
    ...(labelled ? (["channels", "tags"] as const) : []),
    ...(filtered ? (["filtered_endpoint_ids"] as const) : []),
    ...(checked ? (["schema_version", "schema_violations"] as const) : []),
  )}`;
  const deliveries = rows
    .flatMap((r) => r.endpointIds.map((endpointId) => ({ id: newId("delivery", now.getTime()), endpointId, messageId: r.message.id, consumerId: r.message.consumer_id })))
    .sort((a, b) => (a.endpointId < b.endpointId ? -1 : a.endpointId > b.endpointId ? 1 : 0));
  if (deliveries.length === 0) return messages;
  const lined = deliveries.flatMap((d) => {
    const line = lines?.get(placeOf(d.messageId, d.endpointId));
    return line ? [{ id: d.id, ...line }] : [];
  });
  // Data-modifying CTEs all run, to completion, whether read or not; the deliveries' foreign key to
  // their message is checked at the statement's end, when the message is there.
  //
  // Those checks, and the queue rows' into deliveries, look up partitioned tables one row at a time,
  // and by default PostgreSQL plans each lookup afresh (a plan for every partition looks costlier to
  // it than one for the row's), a planning cost paid on every row. For the rest of this
  // transaction — the statement itself when it is its own — they run the plan made once per
  // connection, pruned to the row's partition as it runs: a batch's write takes markedly less time
  // (ADR 0037, decision 4; figures in its consequences and docs/benchmarks.md#other-benchmark-scripts).
  const generic = genericChecks ? tx`select set_config('plan_cache_mode', 'force_generic_plan', true)` : tx`select 1`;
  return tx`with g as materialized (${generic}),
    m as (${messages}),
    d as (
      insert into deliveries (id, message_id, endpoint_id, consumer_id, status, next_attempt_at, created_at, updated_at)
      select unnest(${deliveries.map((d) => d.id)}::text[]), unnest(${deliveries.map((d) => d.messageId)}::text[]),
             unnest(${deliveries.map((d) => d.endpointId)}::text[]), unnest(${deliveries.map((d) => d.consumerId)}::text[]),
             'pending', ${firstAttemptAt}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
      from g
      returning id, endpoint_id, consumer_id, next_attempt_at)
    ${
      lined.length === 0
        ? tx`insert into delivery_queue (delivery_id, endpoint_id, consumer_id, next_attempt_at) select id, endpoint_id, consumer_id, next_attempt_at from d`
        : tx`insert into delivery_queue (delivery_id, endpoint_id, consumer_id, next_attempt_at, line_key, line_seq)
            select d.id, d.endpoint_id, d.consumer_id, case when l.held then 'infinity' else d.next_attempt_at end, l.line_key, l.line_seq
            from d left join unnest(${lined.map((l) => l.id)}::text[], ${lined.map((l) => l.key)}::text[], ${lined.map((l) => String(l.seq))}::text[]::bigint[],
                                    ${lined.map((l) => String(l.held))}::text[]::boolean[]) as l(id, line_key, line_seq, held) on l.id = d.id`
    }`;
}

/** A delivery's place in its line at an ordered endpoint, as lib/ordering's placeInLines gave it. */
export type LinePlace = { key: string; seq: number; held: boolean };

/** The key of a message's place at an endpoint in `WriteOptions.lines`. */
export function placeOf(messageId: string, endpointId: string): string {
  return `${messageId}/${endpointId}`;
}
