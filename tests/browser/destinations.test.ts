import { existsSync } from "node:fs";
import amqplib, { type ChannelModel, type GetMessage } from "amqplib";
import { Redis } from "ioredis";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAmqpConnections } from "../../lib/destinations/amqp";
import { closeRedisConnections } from "../../lib/destinations/redis-stream";
import { createOperator } from "../../lib/operators";
import { systemCtx } from "../../lib/open-ctx";
import { apiClient, type Api } from "../helpers/api";
import { clickUntilShown } from "../helpers/browser";
import { browserSuite } from "../helpers/browser-suite";
import { startRabbit, startRedis, type RabbitServer, type RedisServer } from "../helpers/brokers";
import { createConsumer, sendMessage } from "../helpers/fixtures";
import { waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";

// A failed attempt is retried an hour later: a refused test send stays the one attempt the tests read.
process.env.DELIVERY_SCHEDULE = "0,1h";

/**
 * Endpoints of every kind on the screens (issue 37), in Chromium against the production build, a
 * real worker and a RabbitMQ and a Redis of this file's own: created through the form of the
 * dashboard and of the portal, a bad broker URL refused beside its field, the credentials shown
 * masked and kept on an edit unless a new URL is typed, a test send to each broker answered with
 * what the broker said (the publisher confirm, the stream entry's id) on the endpoint's page and in
 * the message's attempt log, in English and in Japanese. The polling card's test waits for the
 * polling routes (branch polling37) and runs once they are in the tree.
 * DESTINATION_SHOTS=<folder> saves screenshots of each screen there.
 */
const PASSWORD = "correct horse battery";
const SHOTS = process.env.DESTINATION_SHOTS;
const suite = browserSuite();
let api: Api;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let rabbit: RabbitServer;
let redis: RedisServer;
let rabbitClient: ChannelModel;
/** The endpoints the form makes, by kind, for the tests after it. */
const ids = { amqp: "", redis: "" };

beforeAll(async () => {
  [rabbit, redis] = await Promise.all([startRabbit(), startRedis()]);
  // The customer's side: an exchange whose routing key "invoice.paid" goes to the queue "invoices".
  rabbitClient = await amqplib.connect(rabbit.url());
  const channel = await rabbitClient.createChannel();
  await channel.assertExchange("events", "direct", { durable: true });
  await channel.assertQueue("invoices", { durable: true });
  await channel.bindQueue("invoices", "events", "invoice.paid");
  await channel.close();

  await createOperator({ ctx: systemCtx(), input: { email: "admin@example.com", password: PASSWORD, role: "admin" } });
  api = await apiClient();
  await createConsumer(api, { uid: "acme", name: "Acme" });
  worker = await startTestWorker();
  await suite.open();
}, 600_000);

afterAll(async () => {
  await worker?.stop();
  closeAmqpConnections();
  closeRedisConnections();
  await rabbitClient?.close();
  await Promise.all([rabbit?.close(), redis?.close()]);
}, 120_000);

async function dashboard(locale = "en-US"): Promise<Page> {
  const { page } = await suite.signedIn("admin@example.com", PASSWORD, { locale, scoped: true });
  return page;
}

const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

/** Sends a test from the endpoint's page and waits for the attempt's outcome: its badge, and what the broker said when it took the message. */
async function sendTest(page: Page): Promise<{ outcome: string; said: string | null; messageId: string }> {
  await page.getByRole("button", { name: "Send test" }).click();
  const result = page.getByTestId("test-result");
  const outcome = result.getByTestId("test-outcome");
  await outcome.waitFor({ timeout: 30_000 });
  const said = result.getByTestId("test-response-body");
  const link = await result.getByRole("link", { name: "Open the message" }).getAttribute("href");
  return {
    outcome: (await outcome.locator("span").first().textContent())!,
    said: (await said.count()) ? await said.textContent() : null,
    messageId: link!.split("/").pop()!,
  };
}

/** The stream's entries, by id: what the customer's consumer reads. */
async function streamEntries(stream: string): Promise<Map<string, Record<string, string>>> {
  const reader = new Redis({ port: redis.port, password: redis.password, lazyConnect: true });
  await reader.connect();
  const entries = (await reader.xrange(stream, "-", "+")) as [string, string[]][];
  await reader.quit();
  return new Map(entries.map(([id, flat]) => [id, Object.fromEntries(Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i]!, flat[2 * i + 1]!]))]));
}

describe("endpoints of every kind in Chromium", () => {
  it("adds a RabbitMQ endpoint through the dashboard's form: a bad broker URL refused beside its field, then the endpoint's page shows it masked and a test send is confirmed", async () => {
    const page = await dashboard();
    await page.goto("/consumers/acme");
    const dialog = page.getByRole("dialog", { name: "Add an endpoint" });
    await clickUntilShown(page.getByRole("button", { name: "Add endpoint" }), dialog);
    // HTTP first, as it always was: its URL field, its headers.
    expect(await dialog.getByRole("radio", { name: /^HTTP/ }).isChecked()).toBe(true);
    await dialog.locator("#endpoint-url").waitFor();
    await dialog.getByRole("radio", { name: /^RabbitMQ/ }).check();
    expect(await dialog.locator("#endpoint-url").count()).toBe(0);
    expect(await dialog.getByLabel("Headers").count()).toBe(0);

    const url = dialog.getByLabel("Broker URL");
    await url.fill(`http://127.0.0.1:${rabbit.port}`);
    await dialog.getByLabel("Exchange", { exact: true }).fill("events");
    await dialog.getByLabel("Routing key", { exact: true }).fill("invoice.paid");
    await dialog.getByLabel("Description").fill("Invoices into RabbitMQ");
    await dialog.getByRole("button", { name: "Create" }).click();
    const error = dialog.locator("#endpoint-broker-url-error");
    await error.waitFor();
    expect(await error.textContent()).toBe("The URL scheme must be amqps or amqp, not http.");
    expect(await url.getAttribute("aria-invalid")).toBe("true");
    await shot(page, "form-amqp-refused");

    await url.fill(rabbit.url());
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/endpoints\/ep_/);
    ids.amqp = page.url().split("/").pop()!;
    const masked = `amqp://${rabbit.user}:****@127.0.0.1:${rabbit.port}`;
    expect((await api.get(`/api/v1/endpoints/${ids.amqp}`)).body).toMatchObject({
      kind: "amqp",
      target: { url: masked, exchange: "events", routing_key: "invoice.paid" },
      headers: {},
    });

    await expect.poll(() => page.getByTestId("destination-kind").textContent()).toBe("RabbitMQ");
    expect(await page.getByTestId("destination-url").textContent()).toBe(masked);
    expect(await page.getByTestId("destination-exchange").textContent()).toBe("events");
    expect(await page.getByTestId("destination-routing-key").textContent()).toBe("invoice.paid");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain(`${masked} (exchange "events", routing key "invoice.paid")`);

    const sent = await sendTest(page);
    expect(sent).toMatchObject({ outcome: "Confirmed by the broker", said: "basic.ack" });
    // In the customer's queue, marked as a test.
    const channel = await rabbitClient.createChannel();
    const got = (await waitFor(() => channel.get("invoices", { noAck: true }), { what: "the test message in the queue" })) as GetMessage;
    await channel.close();
    expect(got.properties.messageId).toBe(sent.messageId);
    expect(got.properties.headers).toMatchObject({ "webhook-id": sent.messageId, "webhook-test": "true" });
    expect(await page.content()).not.toContain(rabbit.password);
    await shot(page, "endpoint-amqp");

    // The message's attempt log says where it went (masked) and what the broker said.
    await page.getByTestId("test-result").getByRole("link", { name: "Open the message" }).click();
    const attempt = page.getByTestId("attempt").first();
    await attempt.waitFor();
    expect(await attempt.getByText("Confirmed by the broker").count()).toBe(1);
    expect(await attempt.getByTestId("attempt-destination").textContent()).toBe(`${masked} (exchange "events", routing key "invoice.paid")`);
    await attempt.getByText("Message headers and the broker's answer").click();
    expect(await attempt.getByTestId("response-body").textContent()).toBe("basic.ack");
    await attempt.getByText("What the broker said").waitFor();
    expect(await page.content()).not.toContain(rabbit.password);
    await shot(page, "message-amqp-attempt");
  });

  it("keeps the stored password on an edit that leaves the masked URL, and takes a new URL's own: a wrong password fails the test send in the broker's words", async () => {
    const page = await dashboard();
    await page.goto(`/endpoints/${ids.amqp}`);
    const dialog = page.getByRole("dialog", { name: "Edit endpoint" });
    await clickUntilShown(page.getByRole("button", { name: "Edit", exact: true }), dialog);
    expect(await dialog.getByRole("radio", { name: /^RabbitMQ/ }).isChecked()).toBe(true);
    const url = dialog.getByLabel("Broker URL");
    expect(await url.inputValue()).toBe(`amqp://${rabbit.user}:****@127.0.0.1:${rabbit.port}`);
    await dialog.getByText("The password shows as ****: leave the URL as it is to keep the stored password, or type the whole URL with the password to change it.").waitFor();
    await dialog.getByLabel("Description").fill("Invoices into RabbitMQ, renamed");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await sendTest(page)).toMatchObject({ outcome: "Confirmed by the broker", said: "basic.ack" });

    await clickUntilShown(page.getByRole("button", { name: "Edit", exact: true }), dialog);
    await dialog.getByLabel("Broker URL").fill(rabbit.url("not-the-password"));
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    // The test card starts afresh for the next send.
    await page.reload();
    const refused = await sendTest(page);
    expect(refused).toMatchObject({ outcome: "Credentials refused", said: null });
    expect(await page.getByTestId("test-error-detail").textContent()).toMatch(/ACCESS[-_]REFUSED/);
    await shot(page, "endpoint-amqp-refused");

    await clickUntilShown(page.getByRole("button", { name: "Edit", exact: true }), dialog);
    await dialog.getByLabel("Broker URL").fill(rabbit.url());
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.reload();
    expect(await sendTest(page)).toMatchObject({ outcome: "Confirmed by the broker" });
    expect(JSON.stringify((await api.get(`/api/v1/endpoints/${ids.amqp}`)).body)).not.toContain(rabbit.password);
  });

  it("adds a Redis stream endpoint with a maximum length; a test send shows the entry id the stream holds", async () => {
    const page = await dashboard();
    await page.goto("/consumers/acme");
    const dialog = page.getByRole("dialog", { name: "Add an endpoint" });
    await clickUntilShown(page.getByRole("button", { name: "Add endpoint" }), dialog);
    await dialog.getByRole("radio", { name: /^Redis stream/ }).check();
    await dialog.getByLabel("Server URL").fill(redis.url());
    await dialog.getByLabel("Stream", { exact: true }).fill("events");
    await dialog.getByLabel("Maximum length").fill("1000");
    await shot(page, "form-redis");
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/endpoints\/ep_/);
    ids.redis = page.url().split("/").pop()!;
    const masked = `redis://:****@127.0.0.1:${redis.port}`;
    expect((await api.get(`/api/v1/endpoints/${ids.redis}`)).body).toMatchObject({ kind: "redis_stream", target: { url: masked, stream: "events", max_len: 1000 } });
    await expect.poll(() => page.getByTestId("destination-kind").textContent()).toBe("Redis stream");
    expect(await page.getByTestId("destination-url").textContent()).toBe(masked);
    expect(await page.getByTestId("destination-stream").textContent()).toBe("events");
    expect(await page.getByTestId("destination-max-len").textContent()).toBe("About 1,000 entries");

    const sent = await sendTest(page);
    expect(sent.said).toMatch(/^\d+-\d+$/);
    expect(sent.outcome).toBe(`Added as entry ${sent.said}`);
    expect((await streamEntries("events")).get(sent.said!)).toMatchObject({ "webhook-id": sent.messageId, "webhook-test": "true" });
    expect(await page.content()).not.toContain(redis.password);
    await shot(page, "endpoint-redis");
  });

  it("speaks Japanese: the kind picker and its fields, the destination, and the broker's answer", async () => {
    const page = await dashboard("ja-JP");
    await page.goto(`/endpoints/${ids.redis}`);
    await expect.poll(() => page.getByTestId("destination-kind").textContent()).toBe("Redis ストリーム");
    expect(await page.getByTestId("destination-max-len").textContent()).toBe("約 1,000 件");
    await page.getByText("配信先", { exact: true }).waitFor();
    await page.getByRole("button", { name: "テスト送信" }).click();
    const said = page.getByTestId("test-response-body");
    await said.waitFor({ timeout: 30_000 });
    const entry = (await said.textContent())!;
    await page.getByTestId("test-result").getByText(`エントリ ${entry} として追加`).waitFor();
    await page.getByTestId("test-result").getByText("ブローカーの応答").waitFor();
    await shot(page, "endpoint-redis-ja");

    await page.goto("/consumers/acme");
    const dialog = page.getByRole("dialog", { name: "エンドポイントの追加" });
    await clickUntilShown(page.getByRole("button", { name: "エンドポイントを追加" }), dialog);
    await dialog.getByRole("radio", { name: /^RabbitMQ/ }).check();
    await dialog.getByLabel("ブローカー URL").fill("amqp://");
    await dialog.getByRole("button", { name: "作成" }).click();
    await dialog.locator("#endpoint-broker-url-error").waitFor();
    await dialog.getByText("エクスチェンジ", { exact: true }).waitFor();
    await dialog.getByText("ルーティングキー", { exact: true }).waitFor();
    await shot(page, "form-amqp-ja");
  });

  it("lets the portal add a Redis stream endpoint, lists each kind by name, and shows the broker's answer to its test send", async () => {
    const { page } = await suite.newPage({ scoped: true });
    await page.goto(await suite.portalLink(api, "acme"));
    await page.getByRole("heading", { name: "Endpoints", level: 1 }).waitFor();
    const list = page.getByRole("table");
    await list.getByRole("link", { name: /^RabbitMQ\s*amqp:\/\// }).waitFor();
    await list.getByRole("link", { name: /^Redis stream\s*redis:\/\// }).waitFor();
    await shot(page, "portal-endpoints");

    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Add an endpoint" });
    await dialog.getByRole("radio", { name: /^Redis stream/ }).check();
    await dialog.getByLabel("Server URL").fill(redis.url());
    await dialog.getByLabel("Stream", { exact: true }).fill("portal-events");
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/portal\/endpoints\/ep_/);
    await expect.poll(() => page.getByTestId("destination-stream").textContent()).toBe("portal-events");
    expect(await page.getByTestId("destination-max-len").textContent()).toBe("Never trimmed");
    expect(await page.getByTestId("destination-url").textContent()).toBe(`redis://:****@127.0.0.1:${redis.port}`);
    const sent = await sendTest(page);
    expect(sent.outcome).toBe(`Added as entry ${sent.said}`);
    expect((await streamEntries("portal-events")).has(sent.said!)).toBe(true);
    expect(await page.content()).not.toContain(redis.password);
    await shot(page, "portal-endpoint-redis");
  });
});

// The polling routes come with branch polling37; until they are in the tree there is no polling
// endpoint to show, and this block waits for them.
const POLLING = existsSync("app/api/v1/endpoints/[id]/poll-status/route.ts");

describe.runIf(POLLING)("the polling card in Chromium", () => {
  it("adds a polling endpoint, says it was never polled, shows a token once and the curl, then where the reading stands", async () => {
    const page = await dashboard();
    await page.goto("/consumers/acme");
    const dialog = page.getByRole("dialog", { name: "Add an endpoint" });
    await clickUntilShown(page.getByRole("button", { name: "Add endpoint" }), dialog);
    await dialog.getByRole("radio", { name: /^Polling/ }).check();
    await dialog.getByTestId("polling-note").waitFor();
    await dialog.getByLabel("Description").fill("Pulled by the warehouse");
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/endpoints\/ep_/);
    const id = page.url().split("/").pop()!;
    const card = page.getByTestId("polling-card");
    await card.getByTestId("poll-never").getByText("Never polled").waitFor();
    expect(await page.getByRole("button", { name: "Send test" }).count()).toBe(0);
    await shot(page, "polling-never");

    await card.getByRole("button", { name: "Create token" }).click();
    const token = (await card.getByTestId("poll-token").textContent())!;
    await card.getByText("This token is shown only once: copy it now.", { exact: false }).waitFor();
    const command = (await card.getByTestId("poll-command").textContent())!;
    expect(command).toContain(`Authorization: Bearer ${token}`);
    expect(command).toContain(`${suite.app.url}/api/v1/endpoints/${id}/poll?cursor=&limit=100`);
    await shot(page, "polling-token");

    const message = await sendMessage(api, "acme", { event_type: "invoice.paid", payload: { invoice: "inv_poll" } });
    const polled = await fetch(`${suite.app.url}/api/v1/endpoints/${id}/poll?cursor=&limit=100`, { headers: { authorization: `Bearer ${token}` } });
    expect(polled.status).toBe(200);
    expect(((await polled.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toContain(message.id);
    await page.reload();
    await card.getByTestId("poll-status").waitFor();
    expect(await card.getByTestId("poll-never").count()).toBe(0);
    await card.getByTestId("poll-tokens").getByText("last used").waitFor();
    await shot(page, "polling-status");
    // Its times are how long messages waited to be polled, and the chart and the figures say so.
    await page.getByTestId("stats-chart").getByText("Time until polled").waitFor();
    expect(await page.getByText("p50 until polled").count()).toBe(1);
    expect(await page.getByText("p50 latency").count()).toBe(0);

    const ja = await dashboard("ja-JP");
    await ja.goto(`/endpoints/${id}`);
    await ja.getByTestId("polling-card").getByText("curl でポーリング").waitFor();
    await ja.getByTestId("stats-chart").getByText("ポーリングされるまでの時間").waitFor();
    expect(await ja.getByText("ポーリングまで p99").count()).toBe(1);
    await shot(ja, "polling-status-ja");

    // The portal's page of the same endpoint: its card, its command.
    const portal = (await suite.newPage({ scoped: true })).page;
    await portal.goto(await suite.portalLink(api, "acme"));
    await portal.getByRole("link", { name: /^Polling/ }).click();
    const portalCard = portal.getByTestId("polling-card");
    await portalCard.getByTestId("poll-status").waitFor();
    expect(await portalCard.getByTestId("poll-command").textContent()).toContain(`${suite.app.url}/api/v1/endpoints/${id}/poll?cursor=&limit=100`);
    await shot(portal, "portal-polling");
  });
});
