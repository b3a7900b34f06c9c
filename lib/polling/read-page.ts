import type { SqlOrTx } from "../db/client";
import { subscribedSql } from "../endpoints/subscribed-sql";
import { filterDocument, matchesFilter, parsePayload } from "../filters";
import { positionTime, type Position } from "./cursor";

/** What a poll reads of a polling endpoint: whose messages, which of them, and how old they must be. */
export type PolledEndpoint = {
  id: string;
  consumerId: string;
  eventTypes: string[] | null;
  channels: string[] | null;
  filter: Record<string, unknown> | null;
};

export type PolledMessage = { id: string; event_type: string; payload: string; channels: string[] | null; created_at: Date };

/**
 * A `messages` row the endpoint's readers are given, before its payload filter: its consumer's, its
 * event types and channels take it (fan-out's own test), not a test send, its payload kept.
 */
export function pollableSql(sql: SqlOrTx, endpoint: Pick<PolledEndpoint, "consumerId" | "eventTypes" | "channels">) {
  return sql`consumer_id = ${endpoint.consumerId} and not is_test and payload_expunged_at is null
    and ${subscribedSql(
      sql,
      { eventTypes: sql`${endpoint.eventTypes}::text[]`, channels: sql`${endpoint.channels}::text[]` },
      { eventType: sql`event_type`, channels: sql`channels` },
    )}`;
}

/** Rows read per look; a page whose filter refuses most of them looks again, up to MAX_LOOKS. */
const MAX_LOOKS = 5;

/**
 * The endpoint's messages after `position`, oldest first, up to `limit`: its consumer's messages its
 * event types and channels take — the one subscription test fan-out uses (subscribedSql) — that its
 * payload filter lets through as it stands now, leaving out test sends (addressed to one endpoint by
 * their delivery) and expunged payloads. Only messages at least `settleMs` old by the database's
 * clock: an id is taken before its transaction commits, so a younger message may still be joined by
 * one with a smaller id, which a cursor past it would skip (ADR 0048).
 *
 * `position` is where the next page starts: past the last message given, or past the last one a
 * filter refused when none was given after it, so a page of refusals still moves on. `done`: nothing
 * more is there now.
 */
export async function readPage(
  sql: SqlOrTx,
  endpoint: PolledEndpoint,
  from: Position,
  { limit, settleMs, eventTypes, channel }: { limit: number; settleMs: number; eventTypes?: string[]; channel?: string },
): Promise<{ messages: PolledMessage[]; position: Position; done: boolean; settlesInMs: number | null }> {
  const filterJson = endpoint.filter === null ? null : JSON.stringify(endpoint.filter);
  const theirs = sql`${pollableSql(sql, endpoint)}
    ${eventTypes ? sql`and event_type = any(${eventTypes})` : sql``}
    ${channel ? sql`and ${channel} = any(channels)` : sql``}`;
  const messages: PolledMessage[] = [];
  let position = from;
  for (let look = 0; look < MAX_LOOKS; look++) {
    const want = limit - messages.length;
    // created_at is the id's millisecond (lib/messages/prepare-messages.ts), so the range on it is the
    // consumer index's, and (created_at, id) order is id order.
    const rows = await sql<PolledMessage[]>`
      select id, event_type, payload, channels, created_at from messages
      where created_at >= ${new Date(positionTime(position))} and id > ${position}
        and created_at < now() - ${settleMs} * interval '1 millisecond' and ${theirs}
      order by created_at, id
      limit ${want + 1}`;
    // One row more than wanted says whether more are there: a full last page is `done` too.
    for (const row of rows.slice(0, want)) {
      position = row.id;
      if (filterJson === null || matchesFilter(filterJson, filterDocument({ eventType: row.event_type, payload: parsePayload(row.payload) }))) messages.push(row);
    }
    if (rows.length <= want) {
      if (messages.length > 0 || settleMs === 0) return { messages, position, done: true, settlesInMs: null };
      // Nothing to give yet: when the first message still settling will be ready, so a long-poll looks again then.
      const [settling] = await sql<{ ms: number }[]>`
        select greatest(0, ceil(extract(epoch from created_at + ${settleMs} * interval '1 millisecond' - now()) * 1000))::int as ms
        from messages
        where created_at >= now() - ${settleMs} * interval '1 millisecond' and id > ${position} and ${theirs}
        order by created_at, id limit 1`;
      return { messages, position, done: true, settlesInMs: settling?.ms ?? null };
    }
    if (messages.length === limit) break;
  }
  return { messages, position, done: false, settlesInMs: null };
}
