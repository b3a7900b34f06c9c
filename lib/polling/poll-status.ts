import type { Ctx } from "../context";
import { pollableSql } from "./read-page";
import { idTime } from "../ids";
import { isMessageId, positionTime } from "./cursor";
import { findPollingEndpoint } from "./poll-tokens";
import { startOf } from "./poll-endpoint";
import type { PollStatus } from "./schemas";

/** How many messages behind the lag counts before it says `lag_capped`: a count costs the same whatever the backlog. */
export const LAG_COUNTED = 10_000;

/**
 * GET /endpoints/{id}/poll-status: when the endpoint was last polled, its committed position, how
 * far behind its readers are (messages after the position its event types and channels take —
 * the payload filter is not applied to the count — and the oldest one's age), and its tokens.
 */
export async function pollStatus(ctx: Ctx, id: string): Promise<PollStatus> {
  const endpoint = await findPollingEndpoint(ctx, id);
  const from = endpoint.pollPosition ?? startOf(endpoint.createdAt, ctx.config.RETENTION_PERIOD);
  const [lag] = await ctx.sql<{ n: number; oldest: Date | null }[]>`
    select count(*)::int as n, min(created_at) as oldest from (
      select created_at from messages
      where created_at >= ${new Date(positionTime(from))} and id > ${from} and ${pollableSql(ctx.sql, endpoint)}
      order by created_at, id
      limit ${LAG_COUNTED + 1}) m`;
  const tokens = await ctx.sql<{ id: string; created_at: Date; last_used_at: Date | null }[]>`
    select id, created_at, last_used_at from poll_tokens where endpoint_id = ${endpoint.id} order by created_at, id`;
  const position = endpoint.pollPosition && isMessageId(endpoint.pollPosition) ? endpoint.pollPosition : null;
  return {
    last_polled_at: endpoint.lastPolledAt?.toISOString() ?? null,
    position: position ? { message_id: position, created_at: new Date(idTime(position)).toISOString() } : null,
    lag_messages: Math.min(lag?.n ?? 0, LAG_COUNTED),
    lag_capped: (lag?.n ?? 0) > LAG_COUNTED,
    lag_seconds: lag?.oldest ? Math.max(0, Math.round((Date.now() - lag.oldest.getTime()) / 1000)) : null,
    tokens: tokens.map((t) => ({ id: t.id, created_at: t.created_at.toISOString(), last_used_at: t.last_used_at?.toISOString() ?? null })),
  };
}
