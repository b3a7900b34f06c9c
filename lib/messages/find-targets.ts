import type { SqlOrTx } from "../db/client";
import { subscribedSql } from "../endpoints/subscribed-sql";
import type { CreateMessageInput } from "./schemas";

/** One row per item and target endpoint; an item with no target has one row, endpoint null. */
export type TargetRow = {
  /** The item's place in the list given, from 1. */
  ord: number;
  /** Null: no such consumer (deleted, or not the portal session's). */
  consumer_id: string | null;
  endpoint_id: string | null;
  /** The version of the endpoint's payload filter (lib/messages/load-filters.ts); null: none, or a test send, which goes whatever it says. */
  filter_version: number | null;
  /** On an ordered endpoint, its ordering key ("" when it is one line); null: unordered, or a test send, which waits in no line. */
  line_path: string | null;
  /** A polling endpoint (lib/polling): it takes no delivery, but its long-polls are woken. */
  polling: boolean;
  /** The database's clock, the same on every row. */
  now: Date;
};

/**
 * The fan-out: each message's consumer and the active endpoints it goes to — those whose event
 * types and channels match it, or for a test send the one endpoint named — in one round trip,
 * before any transaction opens. Rows by item, endpoints in id order.
 *
 * The time comes from the database's clock, as the claim's does: a web host running ahead would
 * otherwise make new work look due later than it is. A consumer is named by id or by uid, the id
 * first. A VALUES list and two plain index lookups: for one message as cheap as the single-message
 * query this replaced (an unnest of arrays, or a lateral subquery, measured slower per message:
 * bench/results/2026-12-02-a2-batch-ingest.md).
 */
export function findTargets(
  sql: SqlOrTx,
  inputs: Pick<CreateMessageInput, "consumer" | "event_type" | "channels">[],
  options: { scope: string | null; onlyEndpointId?: string },
) {
  const { scope, onlyEndpointId } = options;
  const list = inputs
    .map(({ consumer, event_type, channels }, n) => sql`(${consumer}::text, ${event_type}::text, ${channels ?? null}::text[], ${n + 1}::int)`)
    .reduce((all, row) => sql`${all}, ${row}`);
  return sql<TargetRow[]>`
    select i.ord, coalesce(by_id.id, by_uid.id) as consumer_id, e.id as endpoint_id, ${onlyEndpointId ? sql`null as filter_version, null as line_path` : sql`case when e.filter is not null then e.filter_version end as filter_version, case when e.ordering = 'ordered' then coalesce(e.ordering_key, '') end as line_path`}, e.destination = 'polling' as polling, now()
    from (values ${list}) as i(consumer, event_type, channels, ord)
    left join consumers by_id on by_id.id = i.consumer and by_id.deleted_at is null ${scope ? sql`and by_id.id = ${scope}` : sql``}
    left join consumers by_uid on by_uid.uid = i.consumer and by_uid.deleted_at is null ${scope ? sql`and by_uid.id = ${scope}` : sql``}
    left join endpoints e on e.consumer_id = coalesce(by_id.id, by_uid.id) and e.state = 'active'
      and ${onlyEndpointId ? sql`e.id = ${onlyEndpointId}` : subscribedSql(sql, { eventTypes: sql`e.event_types`, channels: sql`e.channels` }, { eventType: sql`i.event_type`, channels: sql`i.channels` })}
    order by i.ord, e.id`;
}
