import type { Ctx } from "../context";
import { drain } from "./drain";
import { PORTAL_ACCESS_BATCH, PORTAL_ACCESS_GRACE_MS } from "./expire-portal-access";

/**
 * Removes operators' session rows that ended (signed out, ended from a list) or expired longer than
 * the portal's grace ago, in batches until none is left or `deadline` passes. Such a session is
 * refused from the moment it ended (session-standing.ts); its row only fills the table after that.
 * A small table (one row per sign-in of a few operators), so no index on ended_at.
 */
export async function expireOperatorSessions({ ctx, deadline, batchSize = PORTAL_ACCESS_BATCH }: { ctx: Ctx; deadline: number; batchSize?: number }) {
  const { sql } = ctx;
  const cutoff = sql`now() - ${PORTAL_ACCESS_GRACE_MS} * interval '1 millisecond'`;
  return drain(
    async () => {
      const gone = await sql`
        delete from operator_sessions where id in (
          select id from operator_sessions where expires_at < ${cutoff} or ended_at < ${cutoff} limit ${batchSize})`;
      return { seen: gone.count, removed: { operator_sessions: gone.count } };
    },
    batchSize,
    deadline,
  );
}
