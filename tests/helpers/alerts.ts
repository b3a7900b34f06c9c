import { getSql } from "../../lib/db/client";
import { raiseAlerts, type RaisedAlert } from "../../lib/jobs/raise-alert";
import type { Api } from "./api";
import { createConsumer, createEndpoint } from "./fixtures";

/** What the alert tests (tests/alerts/) start from and read back. */

let seq = 0;

/**
 * A fresh consumer, "Customer N" with `alertEmails` as its own alert addresses, and one endpoint of
 * it ("endpoint N", at `url` or a made-up host): the endpoint as created, with the consumer's uid,
 * id and name.
 */
export async function alertedEndpoint(api: Api, alertEmails: string[] = [], url?: string) {
  const n = ++seq;
  const consumerName = `Customer ${n}`;
  const { uid, id: consumerId } = await createConsumer(api, { uid: `alerted-${n}`, name: consumerName, alert_emails: alertEmails });
  const ep = await createEndpoint(api, uid, url ?? `https://hooks.customer${n}.test/webhooks`, { description: `endpoint ${n}` });
  return { ...ep, uid, consumerId, consumerName };
}

/** Raises `alerts` in a transaction of its own. */
export const raise = (alerts: RaisedAlert[]) => getSql().begin((tx) => raiseAlerts({ sql: tx }, alerts));

/** The alert log (GET /alerts) for `query`, up to 100 rows, newest first. */
export async function alertLog(api: Api, query: string): Promise<any[]> {
  const limit = /(^|&)limit=/.test(query) ? "" : "&limit=100";
  return (await api.get(`/api/v1/alerts?${query}${limit}`)).body.data as any[];
}
