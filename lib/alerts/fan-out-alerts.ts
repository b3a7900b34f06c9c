import { inTransaction, type Ctx } from "../context";
import { asTextArray } from "../db/arrays";
import { newId } from "../ids";
import { logger } from "../logger";
import { enqueueAlertSends, queueFor } from "./enqueue";
import { AlertData, type AlertFacts } from "./facts";
import { ALWAYS_SENT_KINDS, CONSUMER_EMAIL_KINDS, RECOVERY_ALERT_KINDS, type AlertKind } from "./kinds";
import type { SendAlertsPayload } from "../jobs/raise-alert";
import { decideThrottle } from "./throttle";

type ConsumerRow = { consumer_id: string; uid: string; name: string; alert_emails: string[] };
type EndpointRow = ConsumerRow & { id: string; url: string; description: string; state: string };

/** One alert to one target: a channel, or one of the endpoint's consumer's alert emails. */
type Planned = {
  alertId: string;
  kind: AlertKind;
  endpointId: string | null;
  consumerId: string;
  channelId: string | null;
  recipient: string | null;
  target: string;
  facts: AlertFacts;
};

/** Keeps what parses of a caller's `data`: a malformed fact is dropped, not the alert. */
function parseData(raw: Record<string, unknown>): AlertData {
  const parsed = AlertData.safeParse(raw);
  if (parsed.success) return parsed.data;
  const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  return AlertData.parse(Object.fromEntries(Object.entries(raw).filter(([key]) => !bad.has(key))));
}

/**
 * The send_alerts task's work: each raised alert goes to every channel whose kinds include it and,
 * for the kinds the customer hears of, to each alert email of the endpoint's own consumer. One
 * transaction applies the throttle (per endpoint and target, across kinds: lib/alerts/throttle.ts), writes a log row per alert and target (pending, or suppressed)
 * and queues one send_alert job per pending row — so a retry after a fault cannot send twice, and
 * each target's retries stay its own.
 */
export async function fanOutAlerts({ ctx, alerts: raised }: { ctx: Ctx; alerts: SendAlertsPayload["alerts"] }) {
  const { sql, config } = ctx;
  const endpointIds = [...new Set(raised.flatMap((a) => (a.endpoint_id ? [a.endpoint_id] : [])))];
  const consumerIds = [...new Set(raised.flatMap((a) => (a.consumer_id ? [a.consumer_id] : [])))];
  const [endpoints, consumers, channels] = await Promise.all([
    sql<EndpointRow[]>`
      select e.id, e.url, e.description, e.state, c.id as consumer_id, c.uid, c.name, c.alert_emails
      from endpoints e join consumers c on c.id = e.consumer_id
      where e.id = any(${asTextArray(endpointIds)}::text[])`,
    sql<ConsumerRow[]>`select id as consumer_id, uid, name, alert_emails from consumers where id = any(${asTextArray(consumerIds)}::text[])`,
    sql<{ id: string; kinds: string[] | null }[]>`select id, kinds from alert_channels order by id`,
  ]);
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  const consumerById = new Map(consumers.map((c) => [c.consumer_id, c]));

  const planned: Planned[] = [];
  for (const alert of raised) {
    const endpoint = alert.endpoint_id ? byId.get(alert.endpoint_id) : undefined;
    const consumer = endpoint ?? (alert.consumer_id ? consumerById.get(alert.consumer_id) : undefined);
    // A recovery's alert still goes when its endpoint is gone; an endpoint's alert does not.
    if (!consumer || (!endpoint && !RECOVERY_ALERT_KINDS.includes(alert.kind))) {
      logger.info("alert dropped: what it is about no longer exists", { kind: alert.kind, endpoint_id: alert.endpoint_id });
      continue;
    }
    const base = {
      kind: alert.kind,
      raised_at: alert.raised_at,
      endpoint: endpoint ? { id: endpoint.id, url: endpoint.url, description: endpoint.description, state: endpoint.state } : null,
      consumer: { id: consumer.consumer_id, uid: consumer.uid, name: consumer.name },
      data: parseData(alert.data),
      folded: 0,
      folded_since: null,
    };
    const plan = (target: string, channelId: string | null, recipient: string | null, audience: AlertFacts["audience"]) =>
      planned.push({
        alertId: newId("alert"),
        kind: alert.kind,
        endpointId: endpoint?.id ?? null,
        consumerId: consumer.consumer_id,
        channelId,
        recipient,
        target,
        facts: { ...base, audience },
      });
    for (const channel of channels) {
      if (channel.kinds === null || channel.kinds.includes(alert.kind)) plan(channel.id, channel.id, null, "operator");
    }
    if (CONSUMER_EMAIL_KINDS.includes(alert.kind)) {
      for (const email of new Set(consumer.alert_emails.map((e) => e.toLowerCase()))) plan(`email:${email}`, null, email, "consumer");
    }
  }
  if (planned.length === 0) return { sent: 0, suppressed: 0 };

  return inTransaction(ctx, async ({ sql: tx }) => {
    const candidates = planned.flatMap((p) =>
      p.endpointId && !RECOVERY_ALERT_KINDS.includes(p.kind)
        ? [{ alertId: p.alertId, endpointId: p.endpointId, target: p.target, alwaysSent: ALWAYS_SENT_KINDS.includes(p.kind) }]
        : [],
    );
    const decisions = await decideThrottle(tx, candidates, config.ALERT_THROTTLE);
    const rows = planned.map((p) => {
      const { sent, folded, foldedSince } = decisions.get(p.alertId) ?? { sent: true, folded: 0, foldedSince: null };
      const facts: AlertFacts = { ...p.facts, folded, folded_since: foldedSince?.toISOString() ?? null };
      return { ...p, status: sent ? "pending" : "suppressed", folded, facts };
    });
    const column = (pick: (r: (typeof rows)[number]) => string | number | null) => asTextArray(rows.map(pick));
    await tx`
      insert into alerts (id, kind, endpoint_id, consumer_id, channel_id, recipient, status, folded, payload, created_at, updated_at)
      select x.id, x.kind, x.endpoint_id, x.consumer_id, x.channel_id, x.recipient, x.status, x.folded::int, x.payload::jsonb, now(), now()
      from unnest(${column((r) => r.alertId)}::text[], ${column((r) => r.kind)}::text[], ${column((r) => r.endpointId)}::text[],
                  ${column((r) => r.consumerId)}::text[], ${column((r) => r.channelId)}::text[], ${column((r) => r.recipient)}::text[],
                  ${column((r) => r.status)}::text[], ${column((r) => r.folded)}::text[], ${column((r) => JSON.stringify(r.facts))}::text[])
           as x(id, kind, endpoint_id, consumer_id, channel_id, recipient, status, folded, payload)`;
    const sends = rows.filter((r) => r.status === "pending").map((r) => ({ alertId: r.alertId, queue: queueFor(r.channelId) }));
    await enqueueAlertSends(tx, sends);
    return { sent: sends.length, suppressed: rows.length - sends.length };
  });
}
