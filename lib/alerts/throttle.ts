import { asTextArray } from "../db/arrays";
import type { SqlOrTx } from "../db/client";

/** Alerts of one kind for one endpoint to one target, raised in one batch. */
export type ThrottleGroup = { endpointId: string; kind: string; target: string; firstAlertId: string; count: number };
export type ThrottleDecision = { sent: boolean; folded: number; foldedSince: Date | null };

export const throttleKey = (g: { endpointId: string; kind: string; target: string }) => `${g.endpointId}\u0000${g.kind}\u0000${g.target}`;

/**
 * At most one alert of a kind per endpoint per target within `throttleMs`, decided in Postgres so
 * it holds across worker processes. Each group is one INSERT … ON CONFLICT DO UPDATE on the
 * (endpoint, kind, target) row: Postgres locks the row it conflicts with and evaluates the update
 * against the latest committed version, so of two workers racing for the same key the second
 * waits for the first and then sees its `last_sent_at` — exactly one goes out. (An advisory lock
 * would need a second statement and a hash of the key; a plain SELECT would race.) Rows are
 * upserted in key order so two batches sharing keys cannot deadlock.
 *
 * When the window has passed, the group's first alert goes out and folds in the count suppressed
 * since the previous one; the rest of the group, and every alert within the window, are suppressed
 * and counted for the next.
 */
export async function decideThrottle(tx: SqlOrTx, groups: ThrottleGroup[], throttleMs: number): Promise<Map<string, ThrottleDecision>> {
  const decisions = new Map<string, ThrottleDecision>();
  if (groups.length === 0) return decisions;
  const sorted = [...groups].sort((a, b) => (throttleKey(a) < throttleKey(b) ? -1 : 1));
  const column = (pick: (g: ThrottleGroup) => string | number) => asTextArray(sorted.map(pick));
  const rows = await tx<{ endpoint_id: string; kind: string; target: string; last_alert_id: string; folded: number; folded_since: Date | null }[]>`
    insert into alert_throttles as t (endpoint_id, kind, target, last_sent_at, last_alert_id, suppressed, folded, folded_since)
    select x.endpoint_id, x.kind, x.target, now(), x.alert_id, x.n::int - 1, 0, null
    from unnest(${column((g) => g.endpointId)}::text[], ${column((g) => g.kind)}::text[], ${column((g) => g.target)}::text[],
                ${column((g) => g.firstAlertId)}::text[], ${column((g) => g.count)}::text[])
         with ordinality as x(endpoint_id, kind, target, alert_id, n, ord)
    order by x.ord
    on conflict (endpoint_id, kind, target) do update set
      last_sent_at = case when t.last_sent_at <= now() - ${throttleMs} * interval '1 millisecond' then now() else t.last_sent_at end,
      last_alert_id = case when t.last_sent_at <= now() - ${throttleMs} * interval '1 millisecond' then excluded.last_alert_id else t.last_alert_id end,
      folded = case when t.last_sent_at <= now() - ${throttleMs} * interval '1 millisecond' then t.suppressed else t.folded end,
      folded_since = case when t.last_sent_at <= now() - ${throttleMs} * interval '1 millisecond' then t.last_sent_at else t.folded_since end,
      suppressed = case when t.last_sent_at <= now() - ${throttleMs} * interval '1 millisecond' then excluded.suppressed
                        else t.suppressed + excluded.suppressed + 1 end
    returning endpoint_id, kind, target, last_alert_id, folded, folded_since`;
  const byKey = new Map(sorted.map((g) => [throttleKey(g), g]));
  for (const row of rows) {
    const key = throttleKey({ endpointId: row.endpoint_id, kind: row.kind, target: row.target });
    const sent = byKey.get(key)?.firstAlertId === row.last_alert_id;
    decisions.set(key, { sent, folded: sent ? row.folded : 0, foldedSince: sent ? row.folded_since : null });
  }
  return decisions;
}
