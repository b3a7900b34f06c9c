import type { SqlOrTx } from "../db/client";
import { notifyDue } from "../jobs";

/**
 * An endpoint no longer ordered: its lines are undone and every message held in one is due at once
 * (lib/deliveries/lines.sql), attempted side by side like any other from now on.
 */
export async function releaseLines(sql: SqlOrTx, endpointId: string): Promise<void> {
  const released = await sql`
    update delivery_queue set line_key = null, line_seq = null,
      next_attempt_at = case when next_attempt_at = 'infinity' then date_trunc('milliseconds', now()) else next_attempt_at end
    where endpoint_id = ${endpointId} and line_key is not null`;
  if (released.count > 0) await notifyDue(sql);
}
