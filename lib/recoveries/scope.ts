import type { SqlOrTx } from "../db/client";
import { deliveriesOfMessageColumnSql } from "../db/deliveries-of-messages";
import { subscribedSql } from "../endpoints/subscribed-sql";
import { ACTIVE_RECOVERY_STATES, type RecoveryScope, type SelectionCursor } from "../db/schema";

export type ScopeTarget = { consumerId: string; endpointIds: string[] };

/** A consumer-wide run's endpoints: those that can receive now. */
export async function activeEndpointIds(sql: SqlOrTx, consumerId: string): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`select id from endpoints where consumer_id = ${consumerId} and state = 'active' and destination <> 'polling' order by id`;
  return rows.map((r) => r.id);
}

/**
 * The deliveries a recovery scope covers, as one SQL fragment — shared by the dry run and the
 * freeze, so the count a person is shown is the count that is frozen. Rows: message_id,
 * endpoint_id, delivery_id (null for a message the endpoint never got), event_type, status
 * (`never_attempted` for those), created_at (the message's) and `held` (an active run already owns
 * it: such a row is left out of a new run). `after`: only from that cursor's message time on.
 */
export function scopeCandidates(sql: SqlOrTx, target: ScopeTarget, scope: RecoveryScope, after: SelectionCursor | null = null) {
  const typeFilter = scope.event_types ? sql`and m.event_type = any(${scope.event_types})` : sql``;
  // A selection's next batch starts at its cursor's message time (the exact position is taken by
  // the caller): each batch reads from there on, not the whole window again.
  const from = after ? sql`greatest(${scope.since}::timestamptz, ${after.created_at}::timestamptz)` : sql`${scope.since}::timestamptz`;
  const window = sql`m.created_at >= ${from} and m.created_at < ${scope.until}::timestamptz`;
  const attempted = sql`
    select m.id as message_id, d.endpoint_id, d.id as delivery_id, m.event_type, d.status, m.created_at
    from deliveries d join messages m on ${deliveriesOfMessageColumnSql(sql, "d", "m.id")}
    -- A delivery is made with its message or later, so its own created_at bounds the index scan.
    where d.endpoint_id = any(${target.endpointIds}) and d.created_at >= ${from}
      and d.status = any(${scope.statuses}) and ${window} ${typeFilter}`;
  // Messages an endpoint never got (it was disabled, did not exist yet, or filtered them out then)
  // and that its event types and channels take now.
  const neverAttempted = sql`
    select m.id as message_id, e.id as endpoint_id, null::text as delivery_id, m.event_type, 'never_attempted' as status, m.created_at
    from messages m join endpoints e on e.id = any(${target.endpointIds})
      and ${subscribedSql(sql, { eventTypes: sql`e.event_types`, channels: sql`e.channels` }, { eventType: sql`m.event_type`, channels: sql`m.channels` })}
    where m.consumer_id = ${target.consumerId} and ${window} ${typeFilter}
      and not exists (select 1 from deliveries d where ${deliveriesOfMessageColumnSql(sql, "d", "m.id")} and d.endpoint_id = e.id)`;
  return sql`
    select c.*, exists (
      select 1 from recovery_items i join recoveries r on r.id = i.recovery_id
      where i.message_id = c.message_id and i.endpoint_id = c.endpoint_id and r.state = any(${[...ACTIVE_RECOVERY_STATES]})
    ) as held
    from (${attempted} ${scope.include_never_attempted ? sql`union all ${neverAttempted}` : sql``}) c`;
}
