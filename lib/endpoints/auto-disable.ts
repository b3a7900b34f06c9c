import type { Sql, SqlOrTx } from "../db/client";
import { newId } from "../ids";
import { formatDuration } from "../duration";
import { raiseAlerts } from "../jobs/raise-alert";

/**
 * The 5-day rule: an active endpoint failing with no success for ENDPOINT_DISABLE_AFTER becomes
 * auto_disabled, its pending deliveries stop (canceled; a recovery can bring them back), and the
 * change is recorded as an audit event and raises endpoint.disabled, in the same transaction.
 * `endpointIds` narrows the check to endpoints that just failed; without it every endpoint is
 * checked (the periodic sweep).
 */
export async function autoDisableFailingEndpoints(
  sql: Sql,
  input: { disableAfterMs: number; endpointIds?: string[] },
): Promise<string[]> {
  const reason = `no successful delivery for ${formatDuration(input.disableAfterMs)} while failing`;
  const due = (tx: SqlOrTx) => tx`
    state = 'active' and failing_since is not null
    -- A polling endpoint nobody polls is alerted on, never disabled: its consumer may come back and read on.
    and destination <> 'polling'
    and failing_since <= now() - ${input.disableAfterMs} * interval '1 millisecond'
    and (last_success_at is null or last_success_at < failing_since)
    ${input.endpointIds ? tx`and id = any(${input.endpointIds})` : tx``}`;
  // Read outside a transaction first: after most failed attempts nothing is due, and this runs after each.
  const candidates = await sql<{ id: string }[]>`select id from endpoints where ${due(sql)}`;
  if (candidates.length === 0) return [];
  const rows = await sql.begin(async (tx) => {
    // Queue rows before endpoint rows — the order claims and outcome writes lock them in.
    await tx`select 1 from delivery_queue where endpoint_id = any(${candidates.map((c) => c.id)}) order by delivery_id, kind for update`;
    // Then the deliveries the cancel ends, then endpoint rows in id order, as every other writer locks them.
    // By id through the primary key: a generic plan of a join (its array's estimate is thousands of
    // rows) reads every delivery ever made.
    await tx`
      select 1 from deliveries where id = any(array(select delivery_id from delivery_queue where endpoint_id = any(${candidates.map((c) => c.id)})))
      order by id for update`;
    await tx`select 1 from endpoints where id = any(${candidates.map((c) => c.id)}) order by id for update`;
    const disabled = await tx<{ id: string; failing_since: Date }[]>`
      update endpoints set state = 'auto_disabled', disabled_reason = ${reason}, disabled_at = now(), updated_at = now()
      where id = any(${candidates.map((c) => c.id)}) and ${due(tx)}
      returning id, failing_since`;
    if (disabled.length === 0) return [];
    const ids = disabled.map((d) => d.id);
    await tx`select webhook_admin_cancel_pending(${ids}, 'endpoint_auto_disabled')`;
    await tx`
      insert into audit_events (id, actor_type, action, target_type, target_id, data)
      select unnest(${ids.map(() => newId("audit"))}::text[]), 'system', 'endpoint.auto_disabled', 'endpoint',
             unnest(${ids}::text[]), ${tx.json({ reason })}::jsonb`;
    await raiseAlerts(
      { sql: tx },
      disabled.map((d) => ({ kind: "endpoint.disabled", endpointId: d.id, data: { reason, failing_since: d.failing_since.toISOString() } })),
    );
    return ids;
  });
  return rows;
}
