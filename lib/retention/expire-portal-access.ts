import type { Ctx } from "../context";
import { addCounts, type Counts } from "./counts";
import { drain } from "./drain";

/** Rows removed per statement. */
export const PORTAL_ACCESS_BATCH = 5_000;
/**
 * How long an expired portal session or link is kept before it is removed. Either is refused the
 * moment it expires (authenticate-portal-session.ts, exchange-portal-token.ts); the grace only keeps
 * a row a request that checked it a moment earlier may still be reading.
 */
export const PORTAL_ACCESS_GRACE_MS = 60 * 60 * 1000;

/**
 * Removes portal sessions and portal links (their one-time tokens, used or not) that expired longer
 * than PORTAL_ACCESS_GRACE_MS ago, PORTAL_ACCESS_BATCH rows per statement, until none is left or
 * `deadline` passes: without it every link a SaaS ever minted, and every session, stays forever.
 */
export async function expirePortalAccess({ ctx, deadline, batchSize = PORTAL_ACCESS_BATCH }: { ctx: Ctx; deadline: number; batchSize?: number }) {
  const { sql } = ctx;
  const cutoff = sql`now() - ${PORTAL_ACCESS_GRACE_MS} * interval '1 millisecond'`;
  const removed: Counts = {};
  // Sessions by portal_sessions_expires_idx. Links have no index on expires_at: once swept, the
  // table holds only links of the last day or so (a link lives at most 24 h), read at once.
  for (const table of ["portal_sessions", "portal_tokens"] as const) {
    const done = await drain(
      async () => {
        const gone = await sql`delete from ${sql(table)} where id in (select id from ${sql(table)} where expires_at < ${cutoff} limit ${batchSize})`;
        return { seen: gone.count, removed: { [table]: gone.count } };
      },
      batchSize,
      deadline,
    );
    addCounts(removed, done.removed);
    if (done.more) return { removed, more: true };
  }
  return { removed, more: false };
}
