/**
 * The throttle's rule (seed 000: the same endpoint at most once an hour): per endpoint and target
 * across kinds; endpoint.disabled and endpoint.recovered always sent; what was held back counted
 * into the next alert that goes out; a send that ends `failed` gives its window back. Real worker,
 * real receivers, real SMTP; the window is a full hour, so nothing here waits on the clock.
 */
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { createSql } from "../../lib/db/client";
import { fanOutAlerts } from "../../lib/alerts/fan-out-alerts";
import { ctxOver } from "../../lib/open-ctx";
import { alertedEndpoint, alertLog, raise } from "../helpers/alerts";
import { apiClient, type Api } from "../helpers/api";
import { startReceiver, waitFor, type Received } from "../helpers/receiver";
import { startSmtpServer } from "../helpers/smtp";
import { settled } from "../helpers/settled";
import { runTestWorker } from "../helpers/worker";

process.env.ALERT_THROTTLE = "1h";
process.env.ALERT_RETRY_SCHEDULE = "0,50ms";

let api: Api;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let hookSecret: string;
let hookChannelId: string;

beforeAll(async () => {
  [hook, smtp] = await Promise.all([startReceiver(), startSmtpServer()]);
  process.env.SMTP_URL = smtp.url;
  resetConfigForTests();
  api = await apiClient();
  const channel = await api.post("/api/v1/alert-channels", { kind: "webhook", name: "ops", config: { url: `${hook.url}/ops` } });
  expect(channel.status).toBe(201);
  hookSecret = channel.body.secret;
  hookChannelId = channel.body.id;
});

afterAll(async () => {
  await Promise.all([hook?.close(), smtp?.close()]);
});
runTestWorker();

/** The alert log of one endpoint at one target, oldest first (alerts of one fan-out share a millisecond: compare those as sets). */
const logAt = async (endpointId: string, target: { channel?: string; recipient?: string }) =>
  (await alertLog(api, `endpoint_id=${endpointId}`))
    .filter((a) => (target.channel ? a.channel_id === target.channel : a.recipient === target.recipient))
    .reverse();
const webhooksAbout = (endpointId: string, path = "/ops") =>
  hook.received
    .filter((r: Received) => r.path === path && r.body.includes(endpointId))
    .map((r) => new StandardWebhook(hookSecret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: any });

describe("the alert throttle", () => {
  it("lets one alert per endpoint and channel through per window, whatever the kind; disabled and recovered always go and carry the count", async () => {
    const ep = await alertedEndpoint(api, ["owner@throttled.test"]);
    const neighbour = await alertedEndpoint(api);
    await raise([{ kind: "endpoint.failing", endpointId: ep.id, data: { last_status_code: 503 } }]);
    await waitFor(() => webhooksAbout(ep.id).length === 1 && smtp.to("owner@throttled.test").length === 1, { what: "endpoint.failing" });

    // Other kinds about the same endpoint within the hour: held back, on both targets.
    await raise([
      { kind: "message.attempt.exhausted", endpointId: ep.id, data: { message_id: "msg_1" } },
      { kind: "endpoint.enabled", endpointId: ep.id, data: {} },
    ]);
    await raise([{ kind: "endpoint.failing", endpointId: ep.id, data: {} }]);
    // Another endpoint has a window of its own.
    await raise([{ kind: "message.attempt.exhausted", endpointId: neighbour.id, data: {} }]);
    await waitFor(async () => (await logAt(ep.id, { channel: hookChannelId })).length === 4, { what: "four log rows at the channel" });
    const atChannel = await logAt(ep.id, { channel: hookChannelId });
    expect(atChannel[0]).toMatchObject({ kind: "endpoint.failing", status: "sent" });
    expect(atChannel.slice(1).map((a) => `${a.kind} ${a.status}`).sort()).toEqual([
      "endpoint.enabled suppressed",
      "endpoint.failing suppressed",
      "message.attempt.exhausted suppressed",
    ]);
    await waitFor(() => webhooksAbout(neighbour.id).length === 1, { what: "the other endpoint's alert" });

    // endpoint.disabled goes out at once, with the three held back folded in; the owner's email
    // (which only hears failing, disabled and recovered) had one held back.
    await raise([{ kind: "endpoint.disabled", endpointId: ep.id, data: { reason: "test" } }]);
    await waitFor(() => webhooksAbout(ep.id).length === 2 && smtp.to("owner@throttled.test").length === 2, { what: "endpoint.disabled" });
    // A mail is counted before it is answered; its log row says sent only after.
    await settled(ep.id);
    const disabled = webhooksAbout(ep.id)[1]!;
    // Since the alert that went out before it.
    const first = (await logAt(ep.id, { channel: hookChannelId }))[0];
    expect(disabled).toMatchObject({ type: "endpoint.disabled", data: { folded: 3, folded_since: first.created_at } });
    expect(smtp.to("owner@throttled.test")[1]!.mail.text).toContain("1 other alert about this endpoint was not sent since");
    expect((await logAt(ep.id, { recipient: "owner@throttled.test" })).map((a) => `${a.kind} ${a.status} ${a.folded}`).sort()).toEqual([
      "endpoint.disabled sent 1",
      "endpoint.failing sent 0",
      "endpoint.failing suppressed 0",
    ]);

    // endpoint.recovered too, though the window is still open; nothing was held back since.
    await raise([{ kind: "endpoint.recovered", endpointId: ep.id, data: {} }]);
    await waitFor(() => webhooksAbout(ep.id).length === 3, { what: "endpoint.recovered" });
    expect(webhooksAbout(ep.id)[2]).toMatchObject({ type: "endpoint.recovered", data: { folded: 0 } });
    // ...and neither reopened the window: a throttled kind is still held back.
    await raise([{ kind: "endpoint.enabled", endpointId: ep.id, data: {} }]);
    await waitFor(async () => (await logAt(ep.id, { channel: hookChannelId })).length === 7, { what: "the last log row" });
    const enabled = (await logAt(ep.id, { channel: hookChannelId })).filter((a) => a.kind === "endpoint.enabled");
    expect(enabled.map((a) => a.status)).toEqual(["suppressed", "suppressed"]);
  });

  it("holds across kinds when fan-outs race on separate connections: one sent per target", async () => {
    const ep = await alertedEndpoint(api);
    const pool = createSql(process.env.DATABASE_URL!, { max: 8 });
    try {
      const kinds = ["endpoint.failing", "message.attempt.exhausted", "endpoint.enabled"] as const;
      await Promise.all(
        Array.from({ length: 9 }, (_, i) =>
          fanOutAlerts({ ctx: ctxOver(pool), alerts: [{ kind: kinds[i % 3]!, endpoint_id: ep.id, data: {}, raised_at: new Date().toISOString() }] }),
        ),
      );
    } finally {
      await pool.end();
    }
    await waitFor(async () => (await logAt(ep.id, { channel: hookChannelId })).length === 9, { what: "nine log rows" });
    const log = await logAt(ep.id, { channel: hookChannelId });
    expect(log.filter((a) => a.status === "sent")).toHaveLength(1);
    expect(log.filter((a) => a.status === "suppressed")).toHaveLength(8);
  });

  it("a send that ends failed does not use up the window: the next alert goes out and counts it", async () => {
    let up = false;
    const flaky = await startReceiver((_req, res) => res.writeHead(up ? 204 : 500).end());
    const channel = await api.post("/api/v1/alert-channels", { kind: "webhook", name: "flaky", config: { url: `${flaky.url}/flaky` } });
    try {
      const ep = await alertedEndpoint(api);
      await raise([{ kind: "endpoint.failing", endpointId: ep.id, data: {} }]);
      await waitFor(async () => (await logAt(ep.id, { channel: channel.body.id })).some((a) => a.status === "failed"), { what: "the failed send" });
      expect((await logAt(ep.id, { channel: channel.body.id }))[0]).toMatchObject({ status: "failed", attempts: 2 });

      // The same kind again, within the hour: the failed one held no window, so this one goes.
      up = true;
      await raise([{ kind: "endpoint.failing", endpointId: ep.id, data: {} }]);
      await waitFor(async () => (await logAt(ep.id, { channel: channel.body.id })).length === 2, { what: "the second alert's outcome" });
      expect((await logAt(ep.id, { channel: channel.body.id })).map((a) => [a.status, a.folded])).toEqual([
        ["failed", 0],
        ["sent", 1],
      ]);
      const delivered = flaky.received.filter((r) => r.body.includes(ep.id)).at(-1)!;
      expect(JSON.parse(delivered.body).data).toMatchObject({ folded: 1, folded_since: expect.any(String) });
      // The channel that took the first one has its window: the second was held back there.
      expect((await logAt(ep.id, { channel: hookChannelId })).map((a) => a.status)).toEqual(["sent", "suppressed"]);
    } finally {
      await api.del(`/api/v1/alert-channels/${channel.body.id}`);
      await flaky.close();
    }
  });
});
