import { recordAuditEvent } from "../audit/record-audit-event";
import { consumerScope, type Ctx } from "../context";
import { NotFoundError, ValidationError } from "../errors";
import { readConsumerAttempts } from "./queries";

const REQUESTED = "stats.usage_report";

/**
 * A usage report (the Svix API's statistics.aggregateAppStats): each consumer's attempts over a
 * window, from the rollup. Asking records the question — its window and consumers — as an audit
 * event, whose id is the report's; reading it answers from the rollup then (ADR 0042): a window
 * in the past reads the same each time, until STATS_MINUTE_RETENTION takes its ends to the hour.
 */
export type UsageReport = {
  id: string;
  createdAt: Date;
  rows: { consumerId: string; uid: string; attempts: number }[];
};

/** The report asked for: `refs` (ids, uids or imported Svix ids) or every consumer; refs that name none are `unresolved`. */
export async function requestUsageReport({ ctx, since, until, refs }: { ctx: Ctx; since: Date; until: Date; refs: string[] | null }) {
  if (since.getTime() >= until.getTime()) throw new ValidationError("The request is invalid.", [{ path: "since", message: "must be before until" }]);
  let consumerIds: string[] | null = null;
  let unresolved: string[] = [];
  if (refs) {
    const rows = await ctx.sql<{ id: string; uid: string; svix_id: string | null }[]>`
      select id, uid, svix_id from consumers
      where deleted_at is null and (id = any(${refs}::text[]) or uid = any(${refs}::text[]) or svix_id = any(${refs}::text[]))`;
    const named = new Set(rows.flatMap((r) => [r.id, r.uid, r.svix_id]));
    unresolved = refs.filter((ref) => !named.has(ref));
    if (rows.length === 0) throw new ValidationError("The request is invalid.", [{ path: "app_ids", message: "none of these names an application" }]);
    consumerIds = rows.map((r) => r.id);
  }
  const id = await recordAuditEvent(ctx, {
    action: REQUESTED,
    targetType: "stats",
    targetId: "usage",
    data: { since: since.toISOString(), until: until.toISOString(), consumer_ids: consumerIds },
  });
  return { id, unresolved, createdAt: new Date() };
}

/** A report by its id, answered from the rollup now; every consumer of the time it was asked when it named none. */
export async function readUsageReport(ctx: Ctx, id: string): Promise<UsageReport> {
  const [asked] = consumerScope(ctx)
    ? []
    : await ctx.sql<{ created_at: Date; data: { since: string; until: string; consumer_ids: string[] | null } }[]>`
        select created_at, data from audit_events where id = ${id} and action = ${REQUESTED}`;
  if (!asked) throw new NotFoundError("background task", id);
  const consumers = await ctx.sql<{ id: string; uid: string }[]>`
    select id, uid from consumers
    where deleted_at is null
      ${asked.data.consumer_ids ? ctx.sql`and id = any(${asked.data.consumer_ids}::text[])` : ctx.sql`and created_at <= ${asked.created_at}`}
    order by id`;
  const attempts = await readConsumerAttempts(ctx, consumers.map((c) => c.id), new Date(asked.data.since), new Date(asked.data.until));
  return { id, createdAt: asked.created_at, rows: consumers.map((c) => ({ consumerId: c.id, uid: c.uid, attempts: attempts.get(c.id) ?? 0 })) };
}
