import type { Actor, Ctx } from "../context";
import { newId } from "../ids";

/** `actor` defaults to the ctx's: set it when the system acts on someone's behalf (a paused run). */
export type AuditEvent = { actor?: Actor; action: string; targetType: string; targetId: string; data?: Record<string, unknown> };

/**
 * Who did what, written with the ctx's handle: in the transaction of the change itself when the
 * verb has one, so one never exists without the other. Answers the event's id.
 */
export async function recordAuditEvent(ctx: Pick<Ctx, "sql" | "actor">, event: AuditEvent): Promise<string> {
  const actor = event.actor ?? ctx.actor;
  const data = actor.type === "portal" ? { consumer_id: actor.consumerId, ...event.data } : (event.data ?? {});
  const id = newId("audit");
  await ctx.sql`
    insert into audit_events (id, actor_type, actor_id, action, target_type, target_id, data)
    values (${id}, ${actor.type}, ${actor.type === "system" ? null : actor.id}, ${event.action}, ${event.targetType},
            ${event.targetId}, ${ctx.sql.json(data as never)})`;
  return id;
}
