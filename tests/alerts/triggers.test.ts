/**
 * Alerts raised by what really happens to deliveries: a failing receiver, a schedule used up, the
 * 5-day rule (shrunk), a first success, a person enabling the endpoint. The formats and the
 * throttle's mechanics are covered in alert-log.test.ts and throttle.test.ts; here the question is
 * whether each state change raises its alert, exactly once, to the right people.
 */
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { sweep } from "../../lib/maintenance/sweep";
import { systemCtx } from "../../lib/open-ctx";
import { apiClient, type Api } from "../helpers/api";
import { consumerWithEndpoint, sendMessage } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startSmtpServer } from "../helpers/smtp";
import { settled } from "../helpers/settled";
import { runTestWorker, withWorkerEnv } from "../helpers/worker";

process.env.DELIVERY_SCHEDULE = "0,100ms,100ms,100ms,100ms,100ms,100ms,100ms";
process.env.ALERT_FAILING_AFTER = "400ms";
process.env.ALERT_THROTTLE = "1h";
process.env.ALERT_RETRY_SCHEDULE = "0,100ms";
// The breaker would pause the failing endpoints; these tests are about the streak, not the pause.
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";

let api: Api;
let customer: Awaited<ReturnType<typeof startReceiver>>;
let ops: Awaited<ReturnType<typeof startReceiver>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let opsSecret: string;
let seq = 0;

beforeAll(async () => {
  [customer, ops, smtp] = await Promise.all([
    // Paths under /fail answer 500 until the test flips them; everything else 204.
    startReceiver((req, res) => res.writeHead(failing.has(req.url!.split("?")[0]!) ? 500 : 204).end()),
    startReceiver(),
    startSmtpServer(),
  ]);
  process.env.SMTP_URL = smtp.url;
  resetConfigForTests();
  api = await apiClient();
  const channel = await api.post("/api/v1/alert-channels", { kind: "webhook", name: "ops", config: { url: `${ops.url}/ops` } });
  expect(channel.status).toBe(201);
  opsSecret = channel.body.secret;
});

afterAll(async () => {
  await Promise.all([customer, ops, smtp].map((s) => s?.close()));
});
const worker = runTestWorker();

const failing = new Set<string>();

async function failingEndpoint(alertEmails: string[]) {
  const path = `/fail/${++seq}`;
  failing.add(path);
  const { uid, endpointId } = await consumerWithEndpoint(api, `${customer.url}${path}`, {
    consumer: { name: `Customer ${seq}`, alert_emails: alertEmails },
    prefix: "trig",
  });
  return { uid, id: endpointId, path };
}

const send = (uid: string, i = 0) => sendMessage(api, uid, { event_type: "order.paid", payload: { i } });

/** Operational webhooks received about one endpoint, verified and parsed. */
function opsAlerts(endpointId: string, type?: string): { type: string; data: Record<string, any> }[] {
  return ops.received
    .filter((r) => r.body.includes(endpointId))
    .map((r) => new StandardWebhook(opsSecret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: Record<string, any> })
    .filter((a) => !type || a.type === type);
}

const alertLog = async (query: string) => (await api.get(`/api/v1/alerts?${query}`)).body.data as { kind: string; status: string; channel_id: string | null }[];

describe("alerts from real deliveries", () => {
  it("a failing endpoint: one endpoint.failing, exhaustion folded into it by the throttle, then endpoint.recovered", async () => {
    const mine = await failingEndpoint(["owner@one.test"]);
    const other = await failingEndpoint(["owner@two.test"]);
    failing.delete(other.path);
    // Failures keep coming for well past ALERT_FAILING_AFTER: three messages, each failing 8 times
    // (0.7 s of retries at the least), each sent once the one before was exhausted and that was
    // fanned out — three exhaustions, one after the other, however the machine runs.
    const exhaustions = async () =>
      (await getSql()<{ n: number }[]>`
        select count(*)::int as n from alerts where endpoint_id = ${mine.id} and kind = 'message.attempt.exhausted'`)[0]!.n;
    await send(mine.uid, 0);
    await send(other.uid, 0);
    for (let i = 1; i <= 3; i++) {
      await waitFor(async () => (await exhaustions()) === i, { what: `exhaustion ${i} fanned out`, timeout: 30_000 });
      if (i < 3) await send(mine.uid, i);
    }
    await waitFor(async () => (await alertLog(`endpoint_id=${mine.id}&kind=message.attempt.exhausted`)).length === 3, {
      what: "three exhausted deliveries logged",
    });
    await waitFor(() => opsAlerts(mine.id, "endpoint.failing").length === 1 && smtp.to("owner@one.test").length === 1, {
      what: "endpoint.failing to the channel and the owner",
    });

    // Exactly one endpoint.failing per target, however long the streak lasted.
    expect(opsAlerts(mine.id, "endpoint.failing")).toHaveLength(1);
    expect(opsAlerts(mine.id, "endpoint.failing")[0]!.data).toMatchObject({ last_status_code: 500 });
    expect(smtp.to("owner@one.test")[0]!.mail.subject).toContain("failing");
    // Exhaustion came within the hour of endpoint.failing about the same endpoint: suppressed, all
    // three, and counted into the next alert that goes out.
    expect(opsAlerts(mine.id, "message.attempt.exhausted")).toHaveLength(0);
    const log = await alertLog(`endpoint_id=${mine.id}&kind=message.attempt.exhausted`);
    expect(log.map((a) => a.status)).toEqual(["suppressed", "suppressed", "suppressed"]);
    // Exhaustion is for operators: the owner's mailbox has only the failing alert.
    expect(smtp.to("owner@one.test")).toHaveLength(1);
    // The healthy consumer heard nothing.
    expect(smtp.to("owner@two.test")).toHaveLength(0);
    expect(opsAlerts(other.id)).toHaveLength(0);

    // The first success after the alert: endpoint.recovered, to the channel and the owner.
    failing.delete(mine.path);
    await send(mine.uid, 3);
    await waitFor(() => opsAlerts(mine.id, "endpoint.recovered").length === 1 && smtp.to("owner@one.test").length === 2, {
      what: "endpoint.recovered",
    });
    expect(smtp.to("owner@one.test")[1]!.mail.subject).toContain("recovered");
    // endpoint.recovered is always sent, and carries the count the operators did not get.
    expect(opsAlerts(mine.id, "endpoint.recovered")[0]!.data).toMatchObject({ folded: 3, folded_since: expect.any(String) });
    // More successes are not more recoveries.
    await send(mine.uid, 4);
    await waitFor(() => customer.received.filter((r) => r.path === mine.path).length === 3 * 8 + 2, { what: "the second success" });
    await settled(mine.id);
    expect(opsAlerts(mine.id, "endpoint.recovered")).toHaveLength(1);
  });

  it("the 5-day rule (shrunk): endpoint.disabled with its reason, always sent; enabling raises endpoint.enabled, throttled", async () => {
    worker.current = await withWorkerEnv(worker.current, { ENDPOINT_DISABLE_AFTER: "1s" }, async () => {
      const ep = await failingEndpoint(["owner@three.test"]);
      // Failures keep coming, one message per poll, until the streak outlasts the limit.
      let i = 0;
      await waitFor(
        async () => {
          if ((await api.get(`/api/v1/endpoints/${ep.id}`)).body.state !== "active") return true;
          await send(ep.uid, i++);
          return false;
        },
        { interval: 150, timeout: 30_000, what: "the endpoint to stop being active" },
      );
      expect((await api.get(`/api/v1/endpoints/${ep.id}`)).body.state).toBe("auto_disabled");
      await waitFor(() => opsAlerts(ep.id, "endpoint.disabled").length === 1, { what: "endpoint.disabled" });
      expect(opsAlerts(ep.id, "endpoint.disabled")[0]!.data.reason).toMatch(/no successful delivery for 1s/);
      await waitFor(() => smtp.to("owner@three.test").some((m) => /disabled/i.test(m.mail.subject ?? "")), { what: "the owner's email" });

      // An attempt in flight at the disabling keeps its lease, and a retry it schedules would go
      // ahead once enabled, fail and restart the 1 s streak: let them end first.
      await settled(ep.id);
      const enabled = await api.post(`/api/v1/endpoints/${ep.id}/enable`, {});
      expect(enabled.status).toBe(200);
      // endpoint.failing went out within the hour: endpoint.enabled is logged, suppressed.
      await waitFor(async () => (await alertLog(`endpoint_id=${ep.id}&kind=endpoint.enabled`)).length === 1, { what: "endpoint.enabled" });
      expect((await alertLog(`endpoint_id=${ep.id}&kind=endpoint.enabled`))[0]!.status).toBe("suppressed");
      expect(opsAlerts(ep.id, "endpoint.failing")).toHaveLength(1);
      // Enabling an endpoint that is already active is not news.
      await api.post(`/api/v1/endpoints/${ep.id}/enable`, {});
      await settled(ep.id);
      expect(await alertLog(`endpoint_id=${ep.id}&kind=endpoint.enabled`)).toHaveLength(1);
      // endpoint.enabled is for operators only.
      expect(smtp.to("owner@three.test").filter((m) => /enabled/i.test(m.mail.subject ?? ""))).toHaveLength(0);
    });
  });

  it("the sweep raises endpoint.failing for a streak past the threshold even when no attempt is due", async () => {
    const ep = await failingEndpoint([]);
    // A streak that began long ago, whose next retry is hours away: only the sweep can notice it.
    await getSql()`update endpoints set failing_since = now() - interval '2 hours', consecutive_failures = 3 where id = ${ep.id}`;
    // The worker's own sweep may get there first: either way the alert goes out once.
    await sweep({ ctx: systemCtx() });
    const [row] = await getSql()<{ alerted: boolean }[]>`select failing_alerted_at is not null as alerted from endpoints where id = ${ep.id}`;
    expect(row!.alerted).toBe(true);
    await waitFor(() => opsAlerts(ep.id, "endpoint.failing").length === 1, { what: "endpoint.failing from the sweep" });
    await settled(ep.id);
    expect(opsAlerts(ep.id, "endpoint.failing")).toHaveLength(1);
    // Once per streak: the next sweep does not raise it again.
    const again = await sweep({ ctx: systemCtx() });
    expect(again.failing).not.toContain(ep.id);
  });
});
