import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillSecret } from "../../lib/receiving/sample-text";
import { readReceivingSample } from "../../lib/receiving/samples";
import { apiClient, type Api } from "../helpers/api";
import { browserSuite } from "../helpers/browser-suite";
import { createConsumer, createEndpoint } from "../helpers/fixtures";
import { operatorClient, sessionCookie } from "../helpers/session";
import { startReceiver } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";

/**
 * The portal's event catalog and "Receiving webhooks" guide in Chromium against the production
 * build, a real worker and a real receiver: fields read from a JSON Schema, marks for what an
 * endpoint gets, the samples with the endpoint's secret filled in (or a stand-in without
 * view_secrets), the headers of a real test send, both languages, and a narrow iframe.
 */
const suite = browserSuite();
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let api: Api;
let hostOrigin: string;
let billing: string; // invoice.paid only
let everything: string; // every event type

const INVOICE_SCHEMA = {
  type: "object",
  required: ["invoice", "amount"],
  properties: {
    invoice: {
      type: "object",
      description: "The invoice that was paid.",
      required: ["id"],
      properties: { id: { type: "string", description: "Its id." }, lines: { type: "array", items: { type: "object", properties: { sku: { type: "string" } } } } },
    },
    amount: { type: "integer", description: "In the currency's minor unit." },
    currency: { type: "string", enum: ["jpy", "usd"] },
    source: { oneOf: [{ type: "object", properties: { card: { type: "string" } } }, { type: "object", properties: { bank: { type: "string" } } }] },
  },
};

beforeAll(async () => {
  receiver = await startReceiver((_req, res) => res.writeHead(204).end());
  hostOrigin = await suite.framingHost({ width: 800, height: 700 });
  api = await apiClient();
  await createConsumer(api, { uid: "acme", name: "Acme" });
  await createConsumer(api, { uid: "initech", name: "Initech" });
  await api.post("/api/v1/event-types", { name: "invoice.paid", description: "An invoice was paid in full.", schema: INVOICE_SCHEMA, example: { invoice: { id: "inv_1" }, amount: 1200, currency: "jpy" } });
  await api.post("/api/v1/event-types", { name: "subscription.canceled", description: "A subscription ended." });
  billing = (await createEndpoint(api, "acme", `${receiver.url}/billing`, { event_types: ["invoice.paid"] })).id;
  everything = (await createEndpoint(api, "acme", `${receiver.url}/all`)).id;
  worker = await startTestWorker();
  await suite.open({ PORTAL_FRAME_ANCESTORS: `'self' ${hostOrigin}`, PORTAL_NAME: "Acme Cloud" });
}, 600_000);

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

const mintLink = (consumer: string, link: Record<string, unknown> = {}) => suite.portalLink(api, consumer, link);
const newPage = (locale = "en-US") => suite.newPage({ locale });

/** Signed in on the endpoints list, with the link's capabilities. */
async function openPortal(capabilities: string[], locale = "en-US", linkLocale?: string) {
  const opened = await newPage(locale);
  await opened.page.goto(await mintLink("acme", { capabilities, ...(linkLocale ? { locale: linkLocale } : {}) }));
  await opened.page.getByTestId("portal-product").waitFor();
  return opened;
}

const secretReads = (page: Page) => {
  const reads: string[] = [];
  page.on("request", (request) => /\/api\/v1\/endpoints\/[^/]+\/secret$/.test(new URL(request.url()).pathname) && reads.push(request.url()));
  return reads;
};

describe("the portal's event catalog and receiving guide", () => {
  it("lists every event type with its fields and an example to copy, and marks what an endpoint gets", async () => {
    const { context, page } = await openPortal([]);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: suite.app.url });
    await page.getByRole("link", { name: "Event types", exact: true }).click();
    await page.getByRole("heading", { name: "Event types", level: 1 }).waitFor();
    const paid = page.locator('[data-event-type="invoice.paid"]');
    await paid.locator("summary").first().click();
    const fields = paid.getByTestId("schema-fields");
    await fields.waitFor();
    const row = (key: string) => fields.locator(`[data-field="${key}"]`);
    expect(await row("$.amount").innerText()).toMatch(/amount\s+integer\s+required\s+In the currency's minor unit\./);
    expect(await row("$.invoice.id").innerText()).toMatch(/id\s+string\s+required/);
    expect(await row("$.invoice.lines").innerText()).toContain("array of object");
    expect(await row("$.currency").innerText()).toContain('One of: "jpy" · "usd"');
    expect(await row("$.source").innerText()).toContain("Exactly one of the options below.");
    expect(await row("$.source|oneOf0.card").count()).toBe(1);
    // Nested fields sit further right than their parent.
    const indent = async (key: string) => (await row(key).boundingBox())!.x + Number.parseFloat(await row(key).evaluate((el) => getComputedStyle(el).paddingLeft));
    expect(await indent("$.invoice.id")).toBeGreaterThan(await indent("$.invoice"));
    expect(JSON.parse((await paid.getByTestId("event-example").textContent())!)).toEqual({ invoice: { id: "inv_1" }, amount: 1200, currency: "jpy" });
    await paid.getByRole("button", { name: "Copy the example payload" }).click();
    await page.getByText("Copied to the clipboard").first().waitFor();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual({ invoice: { id: "inv_1" }, amount: 1200, currency: "jpy" });
    const canceled = page.locator('[data-event-type="subscription.canceled"]');
    await canceled.locator("summary").click();
    await canceled.getByText("No schema given.").waitFor();
    expect(await page.getByText("Subscribed", { exact: true }).count()).toBe(0);

    // From an endpoint that gets invoice.paid only: that one marked, the other not.
    await page.getByRole("link", { name: "Endpoints", exact: true }).click();
    await page.getByRole("link", { name: `${receiver.url}/billing` }).click();
    await page.getByRole("link", { name: "Its event types in the catalog" }).click();
    await page.getByTestId("subscription-note").getByText("Marked: the 1 event type this endpoint gets.").waitFor();
    await page.locator('[data-event-type="invoice.paid"][data-subscribed="true"]').waitFor();
    await page.locator('[data-event-type="subscription.canceled"][data-subscribed="false"]').getByText("Not subscribed").waitFor();
    // An endpoint with no filter gets them all.
    await page.goto(`${suite.app.url}/portal/event-types?endpoint_id=${everything}`);
    await page.getByText("Every event type is marked: this endpoint gets them all, including ones added later.").waitFor();
    // The note comes with the endpoint, the marks with the catalog: each in its own time.
    await expect.poll(() => page.locator('[data-subscribed="true"]').count()).toBe(2);
    await context.close();
  });

  it("fills in the endpoint's secret with view_secrets, shows a real test send's headers, and the samples are the files", async () => {
    const { context, page } = await openPortal(["view_secrets", "manage_endpoints"]);
    const reads = secretReads(page);
    await page.getByRole("link", { name: `${receiver.url}/billing` }).click();
    await page.getByRole("link", { name: "How to receive and verify these webhooks" }).click();
    await page.getByRole("heading", { name: "Receiving webhooks at this endpoint", level: 1 }).waitFor();
    await page.getByText("Nothing has been sent to this endpoint yet: send a test event to see its real values here.").waitFor();
    await page.locator('[data-testid="secret-note"][data-secret="filled"]').waitFor();
    const secret = (await api.get(`/api/v1/endpoints/${billing}/secret`)).body.key as string;
    const code = page.getByTestId("sample-code");
    expect(await code.textContent()).toBe(fillSecret(readReceivingSample("node").code, secret));
    await page.getByRole("tab", { name: "Python (Flask)" }).click();
    expect(await code.textContent()).toBe(fillSecret(readReceivingSample("python").code, secret));
    await page.getByRole("tab", { name: "Python (Flask)" }).press("ArrowRight");
    expect(await page.getByRole("tab", { name: "Go (net/http)" }).getAttribute("aria-selected")).toBe("true");
    expect(await code.textContent()).toContain(`standardwebhooks.NewWebhook("${secret}")`);
    expect(reads).toHaveLength(1);
    expect(await page.getByTestId("receiver-checklist").innerText()).toContain("Deduplicate by webhook-id");

    // The test send beside the guide: its headers replace "nothing sent yet".
    const before = receiver.received.length;
    await page.getByRole("button", { name: "Send test" }).click();
    const testValue = page.getByTestId("header-value-webhook-test");
    await testValue.waitFor({ timeout: 30_000 });
    const got = receiver.received.slice(before).find((r) => r.path === "/billing")!;
    expect(await testValue.textContent()).toBe("true");
    expect(await page.getByTestId("header-value-webhook-id").textContent()).toBe(got.headers["webhook-id"]);
    expect(await page.getByTestId("header-value-webhook-signature").textContent()).toBe(got.headers["webhook-signature"]);
    expect(await page.getByTestId("headers-source").textContent()).toContain("Values from this endpoint's latest attempt");
    await context.close();
  });

  it("shows a stand-in for the secret without view_secrets, reads no secret, and says why a test cannot be sent", async () => {
    const { context, page } = await openPortal([]);
    const reads = secretReads(page);
    await page.goto(`${suite.app.url}/portal/endpoints/${everything}/receiving`);
    await page.locator('[data-testid="secret-note"][data-secret="hidden"]').getByText("The samples show whsec_YOUR_ENDPOINT_SECRET where the signing secret goes: your link does not show secrets. Ask Acme Cloud for a link that allows it.").waitFor();
    expect(await page.getByTestId("sample-code").textContent()).toBe(fillSecret(readReceivingSample("node").code, null));
    expect(await page.getByRole("button", { name: "Send test" }).isDisabled()).toBe(true);
    await page.getByText("Your link lets you see endpoints but not change them. Ask Acme Cloud for a link that allows managing endpoints.").first().waitFor();
    expect(await page.getByTestId("guide-event-types").textContent()).toBe("This endpoint gets every event type, including ones added later.");
    expect(reads).toEqual([]);

    // The general guide: example values, the stand-in, and each endpoint's own guide.
    await page.getByRole("link", { name: "Receiving", exact: true }).click();
    await page.getByRole("heading", { name: "Receiving webhooks", level: 1, exact: true }).waitFor();
    expect(await page.getByTestId("headers-source").textContent()).toBe("Example values.");
    await page.getByTestId("secret-note").getByText("Replace whsec_YOUR_ENDPOINT_SECRET with your endpoint's signing secret, or open an endpoint's own guide to have it filled in.").waitFor();
    await page.getByRole("link", { name: new RegExp(`${receiver.url}/billing`) }).click();
    await page.waitForURL(`${suite.app.url}/portal/endpoints/${billing}/receiving`);
    await page.getByTestId("guide-endpoint-url").getByText(`${receiver.url}/billing`).waitFor();
    expect(reads).toEqual([]);
    await context.close();
  });

  it("reads in Japanese: the catalog, the guide and its checklist", async () => {
    const { context, page } = await openPortal(["view_secrets"], "en-US", "ja");
    await page.getByRole("link", { name: "イベントタイプ", exact: true }).click();
    await page.getByRole("heading", { name: "イベントタイプ", level: 1 }).waitFor();
    const paid = page.locator('[data-event-type="invoice.paid"]');
    await paid.locator("summary").first().click();
    expect(await paid.getByTestId("schema-fields").locator('[data-field="$.amount"]').innerText()).toMatch(/amount\s+integer\s+必須/);
    expect(await paid.getByTestId("schema-fields").locator('[data-field="$.invoice.lines"]').innerText()).toContain("object の配列");
    await paid.getByRole("button", { name: "ペイロードの例をコピー" }).waitFor();

    await page.getByRole("link", { name: "受信ガイド", exact: true }).click();
    await page.getByRole("heading", { name: "Webhook の受信", level: 1, exact: true }).waitFor();
    await page.getByRole("heading", { name: "受信側のチェックリスト" }).waitFor();
    expect(await page.getByTestId("receiver-checklist").innerText()).toContain("webhook-id で重複を除く");
    await page.getByRole("link", { name: new RegExp(`${receiver.url}/all`) }).click();
    await page.getByRole("heading", { name: "このエンドポイントでの Webhook の受信", level: 1 }).waitFor();
    await page.locator('[data-testid="secret-note"][data-secret="filled"]').getByText("このエンドポイントの署名シークレットを入れてあります", { exact: false }).waitFor();
    const secret = (await api.get(`/api/v1/endpoints/${everything}/secret`)).body.key as string;
    expect(await page.getByTestId("sample-code").textContent()).toContain(secret);
    expect(await page.getByRole("button", { name: "テスト送信" }).isDisabled()).toBe(true);
    await context.close();
  });

  it("fits an 800 px iframe on another origin: no sideways scrolling, long code scrolls inside its box", async () => {
    const { context, page } = await newPage();
    await page.setViewportSize({ width: 820, height: 800 });
    await page.goto(`${hostOrigin}/?src=${encodeURIComponent(await mintLink("acme", { capabilities: ["view_secrets"] }))}`);
    const inFrame = page.frameLocator("#portal");
    await inFrame.getByTestId("portal-product").waitFor();
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    const fits = async (what: string) => {
      const overflow = await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, what).toBeLessThanOrEqual(0);
    };
    // Moving the way a customer does, by the portal's own links (the frame keeps its session).
    await inFrame.getByRole("link", { name: "Receiving", exact: true }).click();
    await inFrame.getByTestId("sample-code").waitFor();
    await fits("the general guide");
    await inFrame.getByRole("link", { name: new RegExp(`${receiver.url}/billing`) }).click();
    await inFrame.locator('[data-testid="secret-note"][data-secret="filled"]').waitFor();
    await fits("an endpoint's guide");
    // A line longer than the box scrolls inside it rather than widening the page.
    expect(await inFrame.getByTestId("sample-code").evaluate((el) => getComputedStyle(el).overflowX)).toBe("auto");
    await inFrame.getByRole("link", { name: "Its event types in the catalog" }).click();
    await inFrame.getByTestId("subscription-note").waitFor();
    await inFrame.locator('[data-event-type="invoice.paid"] summary').first().click();
    await inFrame.getByTestId("schema-fields").waitFor();
    await fits("the catalog");
    await context.close();
  });

  it("the dashboard's catalog reads the same fields and marks an endpoint's event types from its page", async () => {
    const { operator } = await operatorClient("viewer");
    const { context, page } = await newPage();
    const [name, value] = (await sessionCookie(operator.id)).split(/=(.*)/s) as [string, string];
    await context.addCookies([{ name, value, url: suite.app.url }]);
    await page.goto(`${suite.app.url}/endpoints/${billing}`);
    await page.getByRole("link", { name: "Its event types in the catalog" }).click();
    await page.getByRole("heading", { name: "Event types", level: 1 }).waitFor();
    await page.getByTestId("subscription-note").getByText("Marked: the 1 event type this endpoint gets.").waitFor();
    const paid = page.locator('[data-event-type="invoice.paid"][data-subscribed="true"]');
    await paid.locator("summary").first().click();
    expect(await paid.getByTestId("schema-fields").locator('[data-field="$.amount"]').innerText()).toMatch(/amount\s+integer\s+required/);
    await page.locator('[data-event-type="subscription.canceled"][data-subscribed="false"]').waitFor();
    await context.close();
  });
});
