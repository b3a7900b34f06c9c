import { eq, gte, lt } from "drizzle-orm";
import type { Ctx } from "../context";
import { auditEvents } from "../db/schema";
import { selectPage } from "../db/keyset";
import { ForbiddenError } from "../errors";
import { toPage, type PageQuery } from "../pagination";
import { nameActors, type ActorName } from "../actors/actor-names";
import { nameTargets, type TargetName } from "./name-targets";
import type { AuditEventView, ListAuditEventsQuery } from "./schemas";

type Row = typeof auditEvents.$inferSelect;

// A portal session's events carry its consumer (see record-audit-event.ts).
const actorOf = (row: Row) => ({ type: row.actorType, id: row.actorId, consumerId: typeof row.data.consumer_id === "string" ? row.data.consumer_id : null });
const targetOf = (row: Row) => ({ type: row.targetType, id: row.targetId, data: row.data });

function toAuditEvent(row: Row, actor: ActorName, target: TargetName): AuditEventView {
  return {
    id: row.id,
    actor: { type: row.actorType, id: row.actorId, ...actor },
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    data: row.data,
    created_at: row.createdAt.toISOString(),
    target,
  };
}

/** The audit log, newest first. It spans every consumer, so a portal session may not read it. */
export async function listAuditEvents(ctx: Ctx, query: PageQuery & ListAuditEventsQuery) {
  if (ctx.actor.type !== "api_key" && ctx.actor.type !== "operator") {
    throw new ForbiddenError("The audit log is for API keys and operators only.");
  }
  const rows = await selectPage(ctx.db, auditEvents, query, [
    query.actor_type ? eq(auditEvents.actorType, query.actor_type) : undefined,
    query.actor_id ? eq(auditEvents.actorId, query.actor_id) : undefined,
    query.target_id ? eq(auditEvents.targetId, query.target_id) : undefined,
    query.action ? eq(auditEvents.action, query.action) : undefined,
    query.since ? gte(auditEvents.createdAt, query.since) : undefined,
    query.until ? lt(auditEvents.createdAt, query.until) : undefined,
  ]);
  const page = rows.slice(0, query.limit);
  const [actors, targets] = await Promise.all([nameActors(ctx, page.map(actorOf)), nameTargets(ctx, page.map(targetOf))]);
  return toPage(rows, query.limit, (row) => toAuditEvent(row, actors(actorOf(row)), targets(targetOf(row))));
}
