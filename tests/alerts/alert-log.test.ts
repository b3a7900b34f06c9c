import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { createSql, getSql } from "../../lib/db/client";
import { fanOutAlerts } from "../../lib/alerts/fan-out-alerts";
import { ctxOver } from "../../lib/open-ctx";
import { raiseAlerts, type RaisedAlert } from "../../lib/jobs/raise-alert";
import { alertedEndpoint, alertLog, raise } from "../helpers/alerts";
import { apiClient, type Api } from "../helpers/api";
import { startReceiver, waitFor, type Received } from "../helpers/receiver";
import { startSmtpServer } from "../helpers/smtp";
import { withEnv } from "../helpers/env";
import { settled } from "../helpers/settled";
import { runTestWorker, withWorkerEnv } from "../helpers/worker";
import { spawnWorker } from "../helpers/worker-process";
import { consumerWithEndpoint, sendMessage } from "../helpers/fixtures";

// Long enough that "within the window" holds however slow the machine; the one test that needs the
// window to pass restarts the worker with a short one.
process.env.ALERT_THROTTLE = "1h";
// Long enough that a hung channel's first try is still waiting while everything else goes out.
process.env.ALERT_TIMEOUT = "15s";
process.env.ALERT_RETRY_SCHEDULE = "0,100ms,100ms";
process.env.APP_URL = "https://admin.example.test";
// For the test driven by a really failing receiver: quick retries, a short streak, no breaker pause.
process.env.DELIVERY_SCHEDULE = "0,100ms,100ms,100ms,100ms,100ms,100ms,100ms";
process.env.ALERT_FAILING_AFTER = "300ms";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";

const SLACK_PATH = "/services/T0001/B0001/slacksecretslacksecret00";
const CW_TOKEN = "cw0123456789abcdef0123456789abcd";

let api: Api;
let slack: Awaited<ReturnType<typeof startReceiver>>;
let teams: Awaited<ReturnType<typeof startReceiver>>;
let chatwork: Awaited<ReturnType<typeof startReceiver>>;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let hookSecret: string;
let hookChannelId: string;

beforeAll(async () => {
  [slack, teams, chatwork, hook, smtp] = await Promise.all([startReceiver(), startReceiver(), startReceiver(), startReceiver(), startSmtpServer()]);
  // The real services' addresses, pointed at local receivers: the formats are the real ones.
  Object.assign(process.env, {
    SLACK_API_BASE: slack.url,
    TEAMS_API_BASE: teams.url,
    CHATWORK_API_BASE: `${chatwork.url}/v2`,
    SMTP_URL: smtp.url,
    ALERT_EMAIL_FROM: "Webhook Admin <alerts@admin.example.test>",
  });
  resetConfigForTests();
  api = await apiClient();
  const created = await Promise.all([
    api.post("/api/v1/alert-channels", { kind: "slack", name: "ops slack", config: { webhook_url: `https://hooks.slack.com${SLACK_PATH}` } }),
    api.post("/api/v1/alert-channels", {
      kind: "teams",
      name: "ops teams",
      config: { webhook_url: "https://acme.webhook.office.com/webhookb2/a1@b2/IncomingWebhook/c3c3c3c3c3/d4" },
    }),
    api.post("/api/v1/alert-channels", { kind: "chatwork", name: "ops chatwork", config: { api_token: CW_TOKEN, room_id: 4242 } }),
    api.post("/api/v1/alert-channels", { kind: "email", name: "ops mail", config: { to: ["ops@admin.example.test"] } }),
    api.post("/api/v1/alert-channels", { kind: "webhook", name: "ops hook", config: { url: `${hook.url}/ops` } }),
  ]);
  for (const c of created) expect(c.status).toBe(201);
  hookSecret = created[4]!.body.secret;
  hookChannelId = created[4]!.body.id;
});

afterAll(async () => {
  await Promise.all([slack, teams, chatwork, hook, smtp].map((s) => s?.close()));
});
const worker = runTestWorker();

const about = (endpointId: string) => (r: Received) => r.body.includes(endpointId);
const form = (r: Received) => new URLSearchParams(r.body).get("body")!;

function verifyBoth(r: Received, secret: string) {
  const headers = r.headers as Record<string, string>;
  const a = new StandardWebhook(secret).verify(r.body, headers);
  const b = new SvixWebhook(secret).verify(r.body, headers);
  expect(b).toEqual(a);
  return a as any;
}

describe("alert formats", () => {
  it("sends endpoint.failing to every channel in its real format, and to the consumer's own alert email", async () => {
    const ep = await alertedEndpoint(api, ["owner@customer.test"]);
    await raise([
      { kind: "endpoint.failing", endpointId: ep.id, data: { failing_since: "2026-01-02T03:04:05.000Z", last_status_code: 503, last_error: "http_error" } },
    ]);
    await waitFor(async () => (await alertLog(api, `endpoint_id=${ep.id}`)).length === 6, { what: "six alert log rows", timeout: 30_000 });
    const log = await alertLog(api, `endpoint_id=${ep.id}`);
    expect(log.every((a) => a.status === "sent" && a.kind === "endpoint.failing" && a.folded === 0)).toBe(true);
    expect(log.filter((a) => a.recipient === "owner@customer.test")).toHaveLength(1);

    // Slack: the canonical hooks.slack.com URL, sent to SLACK_API_BASE; text plus blocks.
    const [s] = slack.received.filter(about(ep.id));
    expect(s!.path).toBe(SLACK_PATH);
    expect(s!.headers["content-type"]).toBe("application/json");
    const sm = JSON.parse(s!.body);
    expect(sm.text).toContain("Endpoint failing");
    expect(sm.blocks[0]).toEqual({ type: "header", text: { type: "plain_text", text: "Endpoint failing", emoji: true } });
    const fields = sm.blocks.find((b: any) => b.fields).fields.map((f: any) => f.text);
    expect(fields).toEqual(expect.arrayContaining([`*Endpoint*\n${ep.url}`, `*Consumer*\n${ep.consumerName} (${ep.uid})`, "*Last result*\nHTTP 503 (http_error)"]));
    const button = sm.blocks.find((b: any) => b.type === "actions").elements[0];
    expect(button).toMatchObject({ type: "button", url: `https://admin.example.test/endpoints/${ep.id}` });

    // Teams: a message with one Adaptive Card.
    const [t] = teams.received.filter(about(ep.id));
    expect(t!.path).toBe("/webhookb2/a1@b2/IncomingWebhook/c3c3c3c3c3/d4");
    const tm = JSON.parse(t!.body);
    expect(tm.type).toBe("message");
    expect(tm.attachments[0].contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(tm.attachments[0].content).toMatchObject({ type: "AdaptiveCard", version: "1.4" });
    const facts = tm.attachments[0].content.body.find((b: any) => b.type === "FactSet").facts;
    expect(facts).toEqual(expect.arrayContaining([{ title: "Endpoint", value: ep.url }]));
    expect(tm.attachments[0].content.actions[0]).toMatchObject({ type: "Action.OpenUrl", url: `https://admin.example.test/endpoints/${ep.id}` });

    // Chatwork: the token header and a form-encoded [info] message.
    const [c] = chatwork.received.filter(about(ep.id));
    expect(c!.path).toBe("/v2/rooms/4242/messages");
    expect(c!.headers["x-chatworktoken"]).toBe(CW_TOKEN);
    expect(c!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(form(c!)).toMatch(/^\[info\]\[title\]Endpoint failing\[\/title\]Deliveries to .* have been failing since 2026-01-02T03:04:05.000Z\./);
    expect(form(c!)).toContain(`Endpoint: ${ep.url}\n`);
    expect(form(c!).endsWith(`Open in dashboard: https://admin.example.test/endpoints/${ep.id}[/info]`)).toBe(true);

    // Webhook: {type, timestamp, data}, verified by both official libraries under the channel's secret.
    const [h] = hook.received.filter(about(ep.id));
    const payload = verifyBoth(h!, hookSecret);
    expect(payload).toMatchObject({
      type: "endpoint.failing",
      timestamp: expect.any(String),
      data: { endpoint_id: ep.id, endpoint_url: ep.url, consumer_id: ep.consumerId, consumer_uid: ep.uid, last_status_code: 503, folded: 0 },
    });
    expect(h!.headers["webhook-id"]).toBe(log.find((a) => a.channel_id === hookChannelId).id);

    // Email over SMTP: the operators' channel, with the dashboard link; the owner's, without.
    const ops = smtp.to("ops@admin.example.test").filter((m) => m.mail.text!.includes(ep.url));
    expect(ops).toHaveLength(1);
    expect(ops[0]!.mail.subject).toBe(`[Webhook Admin] Endpoint failing: ${ep.url}`);
    expect(ops[0]!.mail.from!.text).toContain("alerts@admin.example.test");
    expect(ops[0]!.mail.text).toContain(`Open in dashboard: https://admin.example.test/endpoints/${ep.id}`);
    expect(ops[0]!.mail.html).toContain(`<a href="https://admin.example.test/endpoints/${ep.id}">`);
    expect(ops[0]!.mail.html).toContain("<h2>Endpoint failing</h2>");
    const owner = smtp.to("owner@customer.test");
    expect(owner).toHaveLength(1);
    expect(owner[0]!.mail.text).toContain(ep.url);
    expect(owner[0]!.mail.text).not.toContain("admin.example.test/endpoints");
    expect(log.find((a) => a.recipient === "owner@customer.test").message).toContain(owner[0]!.mail.text!.trim().split("\n")[0]);
  });

  it("a receiver that keeps failing raises exactly one endpoint.failing per channel and owner", async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(500).end());
    const ep = await alertedEndpoint(api, ["owner-real@customer.test"], `${receiver.url}/hooks`);
    const { uid } = ep;
    // Failures for well past ALERT_FAILING_AFTER, from several messages.
    for (let i = 0; i < 4; i++) {
      await sendMessage(api, uid, { event_type: "order.paid", payload: { i } });
      await new Promise((r) => setTimeout(r, 200));
    }
    // Its deliveries are exhausted too, so the channels also hear message.attempt.exhausted: count
    // endpoint.failing alone, by each format's title.
    const isFailing = (r: Received) => {
      const text = r.headers["content-type"] === "application/x-www-form-urlencoded" ? form(r) : r.body;
      return text.includes(ep.id) && (text.includes("Endpoint failing") || text.includes('"type":"endpoint.failing"'));
    };
    const channels = () => [slack, teams, chatwork, hook].map((r) => r.received.filter(isFailing).length);
    const mails = () =>
      [smtp.to("ops@admin.example.test"), smtp.to("owner-real@customer.test")].map(
        (m) => m.filter((x) => x.mail.subject === `[Webhook Admin] Endpoint failing: ${ep.url}`).length,
      );
    await waitFor(() => [...channels(), ...mails()].every((n) => n >= 1), { what: "endpoint.failing everywhere", timeout: 30_000 });
    await waitFor(() => receiver.received.length === 4 * 8, { what: "every attempt", timeout: 30_000 });
    await settled(ep.id);
    expect(channels()).toEqual([1, 1, 1, 1]);
    expect(mails()).toEqual([1, 1]);
    expect(verifyBoth(hook.received.filter(isFailing)[0]!, hookSecret)).toMatchObject({ type: "endpoint.failing", data: { last_status_code: 500 } });
    const failing = await alertLog(api, `endpoint_id=${ep.id}&kind=endpoint.failing`);
    expect(failing.map((a) => a.status)).toEqual(["sent", "sent", "sent", "sent", "sent", "sent"]);
    await receiver.close();
  });

  it("sends exhaustion, auto-disable, recovery and enable alerts; consumer emails only for theirs; kinds filter channels", async () => {
    // One endpoint hears of exhaustion, disable and recovery (the latter two are never throttled);
    // endpoint.enabled, throttled like exhaustion, is raised about another.
    const only = await api.post("/api/v1/alert-channels", {
      kind: "webhook",
      name: "disabled only",
      config: { url: `${hook.url}/disabled-only` },
      kinds: ["endpoint.disabled"],
    });
    const ep = await alertedEndpoint(api, ["owner2@customer.test"]);
    const other = await alertedEndpoint(api, ["owner3@customer.test"]);
    await raise([
      { kind: "message.attempt.exhausted", endpointId: ep.id, data: { message_id: "msg_1", delivery_id: "dlv_1", attempts: 8, last_status_code: 500 } },
      { kind: "endpoint.disabled", endpointId: ep.id, data: { reason: "no successful delivery for 5d while failing" } },
      { kind: "endpoint.recovered", endpointId: ep.id, data: { failing_since: "2026-01-01T00:00:00.000Z" } },
      { kind: "endpoint.enabled", endpointId: other.id, data: {} },
    ]);
    const ops = () => hook.received.filter((r) => r.path === "/ops" && (r.body.includes(ep.id) || r.body.includes(other.id)));
    await waitFor(() => ops().length === 4 && smtp.to("owner2@customer.test").length === 2, { what: "four webhooks and two owner emails", timeout: 30_000 });
    // Each channel sends from its own queue: Slack may still be one behind.
    await settled(ep.id);
    await settled(other.id);
    const types = ops().map((r) => verifyBoth(r, hookSecret).type).sort();
    expect(types).toEqual(["endpoint.disabled", "endpoint.enabled", "endpoint.recovered", "message.attempt.exhausted"]);
    const exhausted = ops().map((r) => JSON.parse(r.body)).find((p) => p.type === "message.attempt.exhausted");
    expect(exhausted.data).toMatchObject({ message_id: "msg_1", delivery_id: "dlv_1", attempts: 8 });
    const titles = slack.received.filter((r) => about(ep.id)(r) || about(other.id)(r)).map((r) => JSON.parse(r.body).blocks[0].text.text).sort();
    expect(titles).toEqual(["Delivery failed for good", "Endpoint disabled", "Endpoint enabled", "Endpoint recovered"]);
    expect(smtp.to("owner2@customer.test").map((m) => m.mail.subject).sort()).toEqual([
      `[Webhook Admin] Endpoint disabled: ${ep.url}`,
      `[Webhook Admin] Endpoint recovered: ${ep.url}`,
    ]);
    expect(smtp.to("owner3@customer.test")).toEqual([]);
    await waitFor(() => hook.received.some((r) => r.path === "/disabled-only" && r.body.includes(ep.id)), { what: "the filtered channel" });
    const filtered = hook.received.filter((r) => r.path === "/disabled-only" && r.body.includes(ep.id));
    expect(filtered.map((r) => verifyBoth(r, only.body.secret).type)).toEqual(["endpoint.disabled"]);
    await api.del(`/api/v1/alert-channels/${only.body.id}`);
  });

  it("mails a consumer's alert emails only for its own endpoints", async () => {
    const a = await alertedEndpoint(api, ["a@one.test"]);
    const b = await alertedEndpoint(api, ["b@two.test", "B@two.test"]);
    await raise([
      { kind: "endpoint.failing", endpointId: a.id, data: {} },
      { kind: "endpoint.disabled", endpointId: b.id, data: { reason: "test" } },
    ]);
    await waitFor(() => smtp.to("a@one.test").length === 1 && smtp.to("b@two.test").length === 1, { what: "one email each" });
    expect(smtp.to("a@one.test")[0]!.mail.text).toContain(a.url);
    expect(smtp.to("a@one.test")[0]!.mail.text).not.toContain(b.url);
    expect(smtp.to("b@two.test")[0]!.mail.text).toContain(b.url);
    expect(smtp.to("b@two.test")[0]!.mail.text).not.toContain(a.url);
    // Exhaustion and enable are for operators only.
    await raise([{ kind: "message.attempt.exhausted", endpointId: a.id, data: {} }, { kind: "endpoint.enabled", endpointId: a.id, data: {} }]);
    await waitFor(async () => (await alertLog(api, `endpoint_id=${a.id}`)).length === 6 + 10, { what: "the operator-only alerts" });
    expect(smtp.to("a@one.test")).toHaveLength(1);
  });
});

describe("throttle", () => {
  it("suppresses a repeat within ALERT_THROTTLE and folds it into the next alert, in every format", async () => {
    const ep = await alertedEndpoint(api, ["fold@customer.test"]);
    const failing: RaisedAlert = { kind: "endpoint.failing", endpointId: ep.id, data: {} };
    await raise([failing]);
    await raise([failing]);
    const hookLog = async () => alertLog(api, `endpoint_id=${ep.id}&kind=endpoint.failing`).then((rows) => rows.filter((r) => r.channel_id === hookChannelId));
    await waitFor(async () => (await hookLog()).length === 2, { what: "two log rows" });
    expect((await hookLog()).map((r) => r.status).sort()).toEqual(["sent", "suppressed"]);
    expect((await alertLog(api, `endpoint_id=${ep.id}`)).filter((r) => r.status === "suppressed")).toHaveLength(6);

    // The window passes, by the database's clock (the throttle decides with it), under a worker
    // whose window is short.
    worker.current = await withWorkerEnv(worker.current, { ALERT_THROTTLE: "300ms" }, async () => {
      await waitFor(async () => {
        const [row] = await getSql()<{ passed: boolean }[]>`
          select bool_and(window_at is null or window_at <= now() - interval '300 milliseconds') as passed from alert_windows where endpoint_id = ${ep.id}`;
        return row!.passed;
      }, { what: "the throttle window to pass" });
      await raise([failing]);
      await waitFor(async () => (await hookLog()).length === 3 && (await hookLog())[0].status === "sent", { what: "the folded alert" });
      expect((await hookLog())[0]).toMatchObject({ status: "sent", folded: 1 });
      await waitFor(() => smtp.to("fold@customer.test").length === 2 && smtp.to("ops@admin.example.test").filter((m) => m.mail.text!.includes(ep.url)).length === 2);
      // The other channels' sends of the folded alert, before this worker stops.
      await settled(ep.id);
    });

    const note = /1 other alert about this endpoint was not sent since \d{4}-\d\d-\d\dT/;
    const last = (rs: Received[]) => rs.filter(about(ep.id)).at(-1)!;
    expect(JSON.parse(last(slack.received).body).blocks.find((b: any) => b.type === "context").elements[0].text).toMatch(note);
    expect(JSON.stringify(JSON.parse(last(teams.received).body).attachments[0].content.body)).toMatch(note);
    expect(form(last(chatwork.received))).toMatch(note);
    expect(verifyBoth(last(hook.received), hookSecret).data).toMatchObject({ folded: 1, folded_since: expect.any(String) });
    expect(smtp.to("fold@customer.test")[1]!.mail.text).toMatch(note);
    expect(smtp.to("fold@customer.test")[1]!.mail.html).toMatch(note);
    expect(slack.received.filter(about(ep.id))).toHaveLength(2);
  });

  it("holds when fan-outs race on separate connections: one sent per target", async () => {
    const ep = await alertedEndpoint(api);
    const pool = createSql(process.env.DATABASE_URL!, { max: 8 });
    try {
      const raised = [{ kind: "endpoint.failing" as const, endpoint_id: ep.id, data: {}, raised_at: new Date().toISOString() }];
      await Promise.all(Array.from({ length: 8 }, () => fanOutAlerts({ ctx: ctxOver(pool), alerts: raised })));
    } finally {
      await pool.end();
    }
    await waitFor(async () => (await alertLog(api, `endpoint_id=${ep.id}`)).filter((a) => a.status === "sent").length === 5, { what: "five sent" });
    const log = await alertLog(api, `endpoint_id=${ep.id}&limit=100`);
    expect(log).toHaveLength(40);
    expect(log.filter((a) => a.status === "sent")).toHaveLength(5);
    expect(new Set(log.filter((a) => a.status === "sent").map((a) => a.channel_id)).size).toBe(5);
  });

  it("holds across two worker processes", async () => {
    const other = await spawnWorker();
    try {
      const ep = await alertedEndpoint(api);
      // Separate transactions, separate jobs: both workers pick them up at once.
      await Promise.all(Array.from({ length: 6 }, () => raise([{ kind: "endpoint.failing", endpointId: ep.id, data: {} }])));
      await waitFor(async () => (await alertLog(api, `endpoint_id=${ep.id}&limit=100`)).length === 30, { what: "30 log rows", timeout: 30_000 });
      const log = await alertLog(api, `endpoint_id=${ep.id}&limit=100`);
      expect(log.filter((a) => a.status === "sent")).toHaveLength(5);
      expect(hook.received.filter(about(ep.id))).toHaveLength(1);
    } finally {
      await other.kill();
    }
  });
});

describe("reliability", () => {
  it("a hanging channel and a 500 channel delay neither the other channels nor deliveries", async () => {
    const bad = await startReceiver(async (req, res) => {
      if (req.url === "/hang") return; // never answers
      res.writeHead(500).end("upstream broke");
    });
    const hang = await api.post("/api/v1/alert-channels", { kind: "webhook", name: "hangs", config: { url: `${bad.url}/hang` } });
    // A Slack channel whose URL is not Slack's own is used as given (no SLACK_API_BASE).
    const broken = await api.post("/api/v1/alert-channels", { kind: "slack", name: "500s", config: { webhook_url: `${bad.url}/500` } });
    const target = await startReceiver();
    // The hung channel works through its alerts one at a time, each try cut at ALERT_TIMEOUT: while
    // its first try is still waiting for an answer, anything queued behind it would still be
    // waiting too. So "not delayed" is an order of events: each check below holds while it is.
    const hungStillOnFirst = async () => {
      const rows = await getSql()<{ status: string; error: string | null }[]>`select status, error from alerts where channel_id = ${hang.body.id}`;
      return rows.length === 3 && rows.every((r) => r.status === "pending" && r.error === null);
    };
    try {
      const eps = await Promise.all([alertedEndpoint(api), alertedEndpoint(api), alertedEndpoint(api)]);
      await raise(eps.map((ep) => ({ kind: "endpoint.failing" as const, endpointId: ep.id, data: {} })));
      await waitFor(() => eps.every((ep) => hook.received.some(about(ep.id)) && slack.received.some(about(ep.id))), { what: "the good channels" });
      expect(bad.received.some((r) => r.path === "/hang")).toBe(true);
      expect(await hungStillOnFirst()).toBe(true);

      // A delivery goes out while the hung channel holds its one slot.
      const { uid } = await consumerWithEndpoint(api, target.url, { prefix: "deliv" });
      await sendMessage(api, uid, { payload: { n: 1 } });
      await waitFor(() => target.received.length === 1, { what: "the delivery" });
      expect(await hungStillOnFirst()).toBe(true);

      // The 500 channel retries on its own (3 tries) and fails; the good channels got one each.
      // Each bad channel works through its own queue: the 500 one tries 3 times and fails; the hung
      // one's first try times out and waits for its retry.
      await waitFor(
        async () => (await alertLog(api, `endpoint_id=${eps[0]!.id}`)).some((a) => a.channel_id === broken.body.id && a.status === "failed"),
        { what: "the 500 channel failed", timeout: 30_000 },
      );
      const log = await alertLog(api, `endpoint_id=${eps[0]!.id}`);
      expect(log.find((a) => a.channel_id === broken.body.id)).toMatchObject({ status: "failed", attempts: 3, error: "HTTP 500: upstream broke" });
      expect(bad.received.filter((r) => r.path === "/500" && r.body.includes(eps[0]!.id))).toHaveLength(3);
      const hung = await waitFor(async () => {
        const [row] = await getSql()`select status, error from alerts where channel_id = ${hang.body.id} and error is not null limit 1`;
        return row;
      }, { what: "the hung channel's first try to time out", timeout: 45_000 });
      expect(hung.error).toMatch(/^timeout: no complete response within 15000 ms/);
      for (const ep of eps) expect(hook.received.filter((r) => r.path === "/ops" && r.body.includes(ep.id))).toHaveLength(1);
      for (const row of log) expect(row.error ?? "").not.toContain(bad.url);
    } finally {
      await api.del(`/api/v1/alert-channels/${hang.body.id}`);
      await api.del(`/api/v1/alert-channels/${broken.body.id}`);
      await Promise.all([bad.close(), target.close()]);
    }
  });

  it("sends nothing for a transaction that rolled back", async () => {
    const rolledBack = await alertedEndpoint(api, ["rb@customer.test"]);
    const committed = await alertedEndpoint(api);
    await getSql()
      .begin(async (tx) => {
        await raiseAlerts({ sql: tx }, [{ kind: "endpoint.disabled", endpointId: rolledBack.id, data: { reason: "never happened" } }]);
        throw new Error("roll back");
      })
      .catch(() => {});
    await raise([{ kind: "endpoint.disabled", endpointId: committed.id, data: {} }]);
    await waitFor(async () => (await alertLog(api, `endpoint_id=${committed.id}`)).length === 5, { what: "the committed alert" });
    expect(await alertLog(api, `endpoint_id=${rolledBack.id}`)).toEqual([]);
    for (const r of [slack, teams, chatwork, hook]) expect(r.received.some(about(rolledBack.id))).toBe(false);
    expect(smtp.to("rb@customer.test")).toEqual([]);
  });

  it("sends a test alert through POST /alert-channels/{id}/test", async () => {
    const before = hook.received.length;
    const res = await api.post(`/api/v1/alert-channels/${hookChannelId}/test`);
    expect(res.status).toBe(202);
    await waitFor(() => hook.received.length > before && hook.received.some((r) => r.headers["webhook-id"] === res.body.id), { what: "the test alert" });
    const payload = verifyBoth(hook.received.find((r) => r.headers["webhook-id"] === res.body.id)!, hookSecret);
    expect(payload).toMatchObject({ type: "alert.test", data: { channel_name: "ops hook", folded: 0 } });
    await waitFor(async () => (await alertLog(api, "kind=alert.test")).some((a) => a.id === res.body.id && a.status === "sent"));
  });

  it("without SMTP_URL keeps the email's full text in the alert log and logs only that one would have gone", async () => {
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    await withEnv({ SMTP_URL: undefined, LOG_LEVEL: "info" }, async () => {
      process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        lines.push(String(chunk));
        return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof process.stderr.write;
      try {
        const ep = await alertedEndpoint(api, ["demo@customer.test"]);
        await raise([{ kind: "endpoint.disabled", endpointId: ep.id, data: { reason: "demo" } }]);
        await waitFor(async () => (await alertLog(api, `endpoint_id=${ep.id}`)).some((a) => a.recipient === "demo@customer.test"), { what: "the logged email" });
        const row = (await alertLog(api, `endpoint_id=${ep.id}`)).find((a) => a.recipient === "demo@customer.test");
        expect(row.status).toBe("sent");
        expect(row.message).toContain("To: demo@customer.test\nSubject: [Webhook Admin] Endpoint disabled: ");
        expect(row.message).toContain(`Endpoint: ${ep.url}`);
        expect(row.message).toContain("Reason: demo");
        // The worker's log says an email would have gone, to how many — not to whom, nor what it said.
        expect(lines.filter((l) => l.includes("email alert not mailed") && l.includes('"recipients":1'))).not.toEqual([]);
        const leaked = lines.filter((l) => l.includes("demo@customer.test") || l.includes(ep.url) || l.includes("Reason: demo"));
        expect(leaked).toEqual([]);
        expect(smtp.to("demo@customer.test")).toEqual([]);
      } finally {
        process.stderr.write = write;
      }
    });
  });
});
