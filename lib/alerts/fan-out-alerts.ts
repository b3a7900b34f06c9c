import type { Config } from "../config";
import { asTextArray } from "../db/arrays";
import type { Sql } from "../db/client";
import { newId } from "../ids";
import { logger } from "../logger";
import { enqueueAlertSends, queueFor } from "./enqueue";
import { AlertData, type AlertFacts } from "./facts";
import { ALWAYS_SENT_KINDS, CONSUMER_EMAIL_KINDS, type AlertKind } from "./kinds";
import type { SendAlertsPayload } from "./raise-alert";
import { decideThrottle } from "./throttle";

type EndpointRow = {
  id: string;
  url: string;
  description: string;
  state: string;
  consumer_id: string;
  uid: string;
  name: string;
  alert_emails: string[];
};

/** One alert to one target: a channel, or one of the endpoint's consumer's alert emails. */
type Planned = {
  alertId: string;
  kind: AlertKind;
  endpointId: string;
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
export async function fanOutAlerts(sql: Sql, config: Config, raised: SendAlertsPayload["alerts"]) {
  const endpointIds = [...new Set(raised.map((a) => a.endpoint_id))];
  const [endpoints, channels] = await Promise.all([
    sql<EndpointRow[]>`
      select e.id, e.url, e.description, e.state, c.id as consumer_id, c.uid, c.name, c.alert_emails
      from endpoints e join consumers c on c.id = e.consumer_id
      where e.id = any(${asTextArray(endpointIds)}::text[])`,
    sql<{ id: string; kinds: string[] | null }[]>`select id, kinds from alert_channels order by id`,
  ]);
  const byId = new Map(endpoints.map((e) => [e.id, e]));

  const planned: Planned[] = [];
  for (const alert of raised) {
    const endpoint = byId.get(alert.endpoint_id);
    if (!endpoint) {
      logger.info("alert dropped: its endpoint no longer exists", { kind: alert.kind, endpointId: alert.endpoint_id });
      continue;
    }
    const base = {
      kind: alert.kind,
      raised_at: alert.raised_at,
      endpoint: { id: endpoint.id, url: endpoint.url, description: endpoint.description, state: endpoint.state },
      consumer: { id: endpoint.consumer_id, uid: endpoint.uid, name: endpoint.name },
      data: parseData(alert.data),
      folded: 0,
      folded_since: null,
    };
    const plan = (target: string, channelId: string | null, recipient: string | null, audience: AlertFacts["audience"]) =>
      planned.push({
        alertId: newId("alert"),
        kind: alert.kind,
        endpointId: endpoint.id,
        consumerId: endpoint.consumer_id,
        channelId,
        recipient,
        target,
        facts: { ...base, audience },
      });
    for (const channel of channels) {
      if (channel.kinds === null || channel.kinds.includes(alert.kind)) plan(channel.id, channel.id, null, "operator");
    }
    if (CONSUMER_EMAIL_KINDS.includes(alert.kind)) {
      for (const email of new Set(endpoint.alert_emails.map((e) => e.toLowerCase()))) plan(`email:${email}`, null, email, "consumer");
    }
  }
  if (planned.length === 0) return { sent: 0, suppressed: 0 };

  return sql.begin(async (tx) => {
    const candidates = planned.map((p) => ({ alertId: p.alertId, endpointId: p.endpointId, target: p.target, alwaysSent: ALWAYS_SENT_KINDS.includes(p.kind) }));
    const decisions = await decideThrottle(tx, candidates, config.ALERT_THROTTLE);
    const rows = planned.map((p) => {
      const { sent, folded, foldedSince } = decisions.get(p.alertId)!;
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
