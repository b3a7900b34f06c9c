import { sql } from "drizzle-orm";
import type { Ctx } from "../context";

/** How stale last_seen_at may get: one write a minute per session, never one per request. */
const LAST_SEEN_EVERY = "1 minute";

export type SessionStanding = { active: false } | { active: true; mustEnroll: boolean };

/**
 * Whether a dashboard session's row is still open (not ended, not expired, the operator's own) —
 * read on every request with the operator row, so an ended session is refused on its next request —
 * and whether this operator must enroll a second factor first (required of everyone, none
 * confirmed). Touches last_seen_at when it is a minute old, in the same statement.
 */
export async function sessionStanding(ctx: Ctx, input: { sessionId: string; operatorId: string }): Promise<SessionStanding> {
  const rows = await ctx.db.execute<{ must_enroll: boolean }>(sql`
    with open as (
      select id from operator_sessions
       where id = ${input.sessionId} and operator_id = ${input.operatorId} and ended_at is null and expires_at > now()
    ), touched as (
      update operator_sessions set last_seen_at = now()
       where id in (select id from open) and last_seen_at < now() - interval '${sql.raw(LAST_SEEN_EVERY)}'
    )
    select coalesce((select require_two_factor from dashboard_settings), false)
           and not exists (select 1 from operator_two_factor where operator_id = ${input.operatorId} and confirmed_at is not null) as must_enroll
      from open`);
  const [row] = rows;
  return row ? { active: true, mustEnroll: row.must_enroll } : { active: false };
}
