import type { JSONValue } from "postgres";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { newId } from "../ids";
import type { AlertFacts } from "./facts";
import { enqueueAlertSends, queueFor } from "./enqueue";
import { TEST_ALERT_KIND } from "./kinds";
import { findAlertChannelRow } from "./queries";
import type { AlertTestQueued } from "./schemas";

/**
 * POST /alert-channels/{id}/test: a test alert for this channel alone, past its kinds filter and
 * the throttle, sent by the worker now. Its outcome lands in the alert log (kind `alert.test`).
 */
export async function testAlertChannel({ ctx, id }: { ctx: Ctx; id: string }): Promise<AlertTestQueued> {
  const channel = await findAlertChannelRow(ctx, id);
  const now = new Date();
  const alertId = newId("alert", now.getTime());
  const facts: AlertFacts = {
    kind: TEST_ALERT_KIND,
    raised_at: now.toISOString(),
    endpoint: null,
    consumer: null,
    data: {},
    folded: 0,
    folded_since: null,
    audience: "operator",
    channel_name: channel.name,
  };
  await inTransaction(ctx, async (tx) => {
    const sql = tx.sql;
    await sql`
      insert into alerts (id, kind, channel_id, status, payload, created_at, updated_at)
      values (${alertId}, ${TEST_ALERT_KIND}, ${channel.id}, 'pending', ${sql.json(facts as unknown as JSONValue)}, ${now}, ${now})`;
    await enqueueAlertSends(sql, [{ alertId, queue: queueFor(channel.id) }]);
    // Sending is an act on the channel's far side (a post in a shared room), so it is audited.
    await recordAuditEvent(tx, { action: "alert_channel.tested", targetType: "alert_channel", targetId: channel.id, data: { alert_id: alertId } });
  });
  return { id: alertId, kind: TEST_ALERT_KIND, channel_id: channel.id, created_at: now.toISOString() };
}
