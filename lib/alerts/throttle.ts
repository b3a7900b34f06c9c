import { asTextArray } from "../db/arrays";
import type { SqlOrTx } from "../db/client";

/** One alert to one target, in the order it was raised. */
export type ThrottleCandidate = { alertId: string; endpointId: string; target: string; alwaysSent: boolean };
export type ThrottleDecision = { sent: boolean; folded: number; foldedSince: Date | null };

const keyOf = (c: { endpointId: string; target: string }) => `${c.endpointId}\u0000${c.target}`;

type WindowRow = { endpoint_id: string; target: string; open: boolean; not_sent: number; not_sent_since: Date | null; now: Date };

/**
 * At most one alert per endpoint per target within `throttleMs`, whatever its kind, decided in
 * Postgres so it holds across worker processes: the (endpoint, target) rows are created if need
 * be and locked, in key order (so two fan-outs sharing keys cannot deadlock), and a racing
 * fan-out waits for this one's commit and then sees its window.
 *
 * Alerts of an always-sent kind go out whatever the window says, and leave it as it is. Every
 * other alert goes out if no window is open, and opens one; else it is suppressed. Whatever goes
 * out first carries the count of what this target did not get since the previous one (`folded`).
 */
export async function decideThrottle(tx: SqlOrTx, candidates: ThrottleCandidate[], throttleMs: number): Promise<Map<string, ThrottleDecision>> {
  const decisions = new Map<string, ThrottleDecision>();
  if (candidates.length === 0) return decisions;
  const keys = [...new Map(candidates.map((c) => [keyOf(c), c])).entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, c]) => c);
  const endpointIds = asTextArray(keys.map((k) => k.endpointId));
  const targets = asTextArray(keys.map((k) => k.target));
  await tx`
    insert into alert_windows (endpoint_id, target)
    select x.endpoint_id, x.target from unnest(${endpointIds}::text[], ${targets}::text[]) with ordinality as x(endpoint_id, target, ord)
    order by x.ord
    on conflict do nothing`;
  const rows = await tx<WindowRow[]>`
    select w.endpoint_id, w.target, w.not_sent, w.not_sent_since,
           -- rounded as the millisecond columns round it, so folded_since equals that alert's created_at
           now()::timestamptz(3) as now,
           (w.window_at is null or w.window_at <= now() - ${throttleMs} * interval '1 millisecond') as open
    from alert_windows w
    join unnest(${endpointIds}::text[], ${targets}::text[]) as x(endpoint_id, target) using (endpoint_id, target)
    order by w.endpoint_id, w.target
    for update of w`;

  const state = new Map(rows.map((r) => [keyOf({ endpointId: r.endpoint_id, target: r.target }), { ...r, windowAlertId: null as string | null }]));
  for (const c of candidates) {
    const window = state.get(keyOf(c))!;
    const sent = c.alwaysSent || window.open;
    if (!sent) {
      window.not_sent += 1;
      window.not_sent_since ??= window.now;
      decisions.set(c.alertId, { sent: false, folded: 0, foldedSince: null });
      continue;
    }
    if (!c.alwaysSent) {
      window.open = false;
      window.windowAlertId = c.alertId;
    }
    decisions.set(c.alertId, { sent: true, folded: window.not_sent, foldedSince: window.not_sent > 0 ? window.not_sent_since : null });
    window.not_sent = 0;
    window.not_sent_since = window.now;
  }

  const changed = [...state.values()];
  const column = (pick: (w: (typeof changed)[number]) => string | number | Date | null) => asTextArray(changed.map(pick));
  await tx`
    update alert_windows w set
      window_at = case when x.window_alert_id is null then w.window_at else now() end,
      window_alert_id = coalesce(x.window_alert_id, w.window_alert_id),
      not_sent = x.not_sent::int,
      not_sent_since = x.not_sent_since::timestamptz
    from unnest(${column((w) => w.endpoint_id)}::text[], ${column((w) => w.target)}::text[], ${column((w) => w.windowAlertId)}::text[],
                ${column((w) => w.not_sent)}::text[], ${column((w) => w.not_sent_since)}::text[])
         as x(endpoint_id, target, window_alert_id, not_sent, not_sent_since)
    where w.endpoint_id = x.endpoint_id and w.target = x.target`;
  return decisions;
}

/**
 * An alert's send ended `failed`: the target never got it, nor what it folded in. If it holds its
 * target's window, the window is given back, so the next alert goes out; either way that next one
 * counts it and its folded alerts among those not sent.
 */
export async function releaseThrottle(
  tx: SqlOrTx,
  alert: { id: string; endpointId: string; target: string; folded: number; since: Date },
): Promise<void> {
  await tx`
    update alert_windows set
      window_at = case when window_alert_id = ${alert.id} then null else window_at end,
      window_alert_id = case when window_alert_id = ${alert.id} then null else window_alert_id end,
      not_sent = not_sent + ${alert.folded + 1},
      not_sent_since = least(not_sent_since, ${alert.since})
    where endpoint_id = ${alert.endpointId} and target = ${alert.target}`;
}
