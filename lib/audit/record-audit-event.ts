import type { Actor } from "../context";
import type { SqlOrTx } from "../db/client";
import { newId } from "../ids";

export type AuditEvent = { actor: Actor; action: string; targetType: string; targetId: string; data?: Record<string, unknown> };

/** Who did what, written in the transaction of the change itself, so one never exists without the other. */
export function recordAuditEvent(tx: SqlOrTx, event: AuditEvent) {
  const { actor } = event;
  const data = actor.type === "portal" ? { consumer_id: actor.consumerId, ...event.data } : (event.data ?? {});
  return tx`
    insert into audit_events (id, actor_type, actor_id, action, target_type, target_id, data)
    values (${newId("audit")}, ${actor.type}, ${actor.type === "system" ? null : actor.id}, ${event.action}, ${event.targetType},
            ${event.targetId}, ${tx.json(data as never)})`;
}
