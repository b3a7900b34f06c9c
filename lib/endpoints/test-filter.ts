import type { Ctx } from "../context";
import { checkFilter, filterDocument, matchesFilter, parsePayload } from "../filters";
import { findEndpointRow } from "./queries";
import { subscribedSql } from "./subscribed-sql";
import type { FilterTestResult } from "./schemas";

/** How many messages a filter is tried on, and how far back among its consumer's messages they are looked for. */
const FILTER_TEST_MESSAGES = 20;
const FILTER_TEST_LOOKS_BACK = 5000;

/**
 * POST /endpoints/{id}/filter/test: which of the endpoint's last messages `filter` would let
 * through, before it is saved — the newest FILTER_TEST_MESSAGES its event types and channels take,
 * among its consumer's last FILTER_TEST_LOOKS_BACK (so a test costs the same whatever the volume),
 * whose payload is still kept. Changes nothing. A null filter lets every message through.
 */
export async function testFilter({ ctx, id, filter: given }: { ctx: Ctx; id: string; filter: unknown }): Promise<FilterTestResult> {
  const filter = checkFilter(given);
  const endpoint = await findEndpointRow(ctx, id);
  const rows = await ctx.sql<{ id: string; event_type: string; payload: string; created_at: Date }[]>`
    select id, event_type, payload, created_at
    from (
      select id, event_type, payload, channels, payload_expunged_at, created_at from messages
      where consumer_id = ${endpoint.consumerId}
      order by created_at desc, id desc
      limit ${FILTER_TEST_LOOKS_BACK}
    ) m
    where payload_expunged_at is null
      and ${subscribedSql(
        ctx.sql,
        { eventTypes: ctx.sql`${endpoint.eventTypes}::text[]`, channels: ctx.sql`${endpoint.channels}::text[]` },
        { eventType: ctx.sql`event_type`, channels: ctx.sql`channels` },
      )}
    order by created_at desc, id desc
    limit ${FILTER_TEST_MESSAGES}`;
  const filterJson = filter === null ? null : JSON.stringify(filter);
  return {
    results: rows.map((row) => ({
      message_id: row.id,
      event_type: row.event_type,
      created_at: row.created_at.toISOString(),
      delivered: filterJson === null || matchesFilter(filterJson, filterDocument({ eventType: row.event_type, payload: parsePayload(row.payload) })),
    })),
  };
}
