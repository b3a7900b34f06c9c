import type { Executor } from "../db/client";
import { auditEvents } from "../db/schema";
import { newId } from "../ids";
import type { AuditEvent } from "./record-audit-event";

/** recordAuditEvent for verbs written with drizzle: the same row, in the caller's transaction. */
export async function insertAuditEvent(db: Executor, event: AuditEvent): Promise<void> {
  const { actor } = event;
  await db.insert(auditEvents).values({
    id: newId("audit"),
    actorType: actor.type,
    actorId: actor.type === "system" ? null : actor.id,
    action: event.action,
    targetType: event.targetType,
    targetId: event.targetId,
    data: actor.type === "portal" ? { consumer_id: actor.consumerId, ...event.data } : (event.data ?? {}),
  });
}
