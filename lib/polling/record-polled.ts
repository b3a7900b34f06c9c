import type { Sql } from "../db/client";
import { deliveryIdFor, newId } from "../ids";
import { raiseAlerts } from "../jobs/raise-alert";
import { logAttempts } from "../deliveries/outcomes/log-attempts";
import type { AttemptOutcome } from "../deliveries/outcomes/types";
import type { PolledMessage } from "./read-page";

/** Touch last_polled_at at most this often when a poll gives nothing new: ten pollers of one endpoint need not write its row ten times a second. */
const TOUCH_EVERY_MS = 1000;
const MAX_DURATION_MS = 2_147_483_647;

/**
 * A poll's mark on its endpoint. Always: it was polled (last_polled_at, and the end of an unpolled
 * streak — endpoint.recovered if endpoint.failing was raised for it). And the messages it gives past
 * the endpoint's committed position (poll_position) count as delivered: each gets a delivery,
 * `succeeded`, and one attempt, trigger `polled`, logged and counted in the stats rollup as every
 * attempt is — then the position moves to the last of them. Given again (an older cursor, another
 * reader), a message is not counted again. The endpoint's row lock orders concurrent polls.
 */
export async function recordPoll(
  sql: Sql,
  endpoint: { id: string; consumerId: string },
  given: PolledMessage[],
  where: string,
): Promise<void> {
  const last = given.at(-1)?.id ?? null;
  const [quiet] = await sql<{ quiet: boolean }[]>`
    select last_polled_at > now() - ${TOUCH_EVERY_MS} * interval '1 millisecond' and failing_since is null
           and (${last}::text is null or poll_position >= ${last}) as quiet
    from endpoints where id = ${endpoint.id}`;
  if (quiet?.quiet) return;
  await sql.begin(async (tx) => {
    const [before] = await tx<{ poll_position: string | null; failing_alerted_at: Date | null; failing_since: Date | null }[]>`
      select poll_position, failing_alerted_at, failing_since from endpoints where id = ${endpoint.id} for update`;
    if (!before) return;
    const fresh = given.filter((m) => before.poll_position === null || m.id > before.poll_position);
    await tx`
      update endpoints set last_polled_at = now(), last_success_at = now(), failing_since = null, failing_alerted_at = null,
        consecutive_failures = 0, poll_position = ${fresh.length > 0 ? fresh.at(-1)!.id : before.poll_position}
      where id = ${endpoint.id}`;
    if (fresh.length > 0) {
      const deliveries = fresh.map((m) => ({ id: deliveryIdFor(m.id), messageId: m.id }));
      await tx`
        insert into deliveries (id, message_id, endpoint_id, consumer_id, status, attempts, last_attempt_at)
        select d.id, d.message_id, ${endpoint.id}, ${endpoint.consumerId}, 'succeeded', 1, now()
        from unnest(${deliveries.map((d) => d.id)}::text[], ${deliveries.map((d) => d.messageId)}::text[]) as d(id, message_id)
        -- The message's partition's unique (message_id, endpoint_id) index is the arbiter.
        on conflict do nothing`;
      const now = new Date();
      const outcomes: AttemptOutcome[] = fresh.map((m, n) => ({
        attemptId: newId("attempt", now.getTime()),
        deliveryId: deliveries[n]!.id,
        messageId: m.id,
        endpointId: endpoint.id,
        consumerId: endpoint.consumerId,
        attemptNumber: 1,
        trigger: "polled",
        success: true,
        statusCode: null,
        error: null,
        errorDetail: null,
        responseBody: "polled",
        // From the message's creation to the poll that gave it: how far behind its reader was (an int4 column).
        durationMs: Math.min(MAX_DURATION_MS, Math.max(0, now.getTime() - m.created_at.getTime())),
        requestHeaders: {},
        url: where,
        finishedAt: now,
        next: null,
      }));
      await logAttempts(tx, outcomes);
    }
    if (before.failing_alerted_at) {
      await raiseAlerts({ sql: tx }, [{ kind: "endpoint.recovered", endpointId: endpoint.id, data: { failing_since: before.failing_since?.toISOString() ?? null } }]);
    }
  });
}
