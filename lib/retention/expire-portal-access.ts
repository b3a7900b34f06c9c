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
  const sessions = await drain(
    async () => {
      // By portal_sessions_expires_idx.
      const done = await sql`
        delete from portal_sessions where id in (select id from portal_sessions where expires_at < ${cutoff} limit ${batchSize})`;
      return { seen: done.count, removed: { portal_sessions: done.count } };
    },
    batchSize,
    deadline,
  );
  addCounts(removed, sessions.removed);
  if (sessions.more) return { removed, more: true };
  const links = await drain(
    async () => {
      // No index on expires_at: once swept, the table holds only links of the last day or so (a
      // link lives at most 24 h), which a scan reads at once.
      const done = await sql`
        delete from portal_tokens where id in (select id from portal_tokens where expires_at < ${cutoff} limit ${batchSize})`;
      return { seen: done.count, removed: { portal_tokens: done.count } };
    },
    batchSize,
    deadline,
  );
  addCounts(removed, links.removed);
  return { removed, more: links.more };
}
