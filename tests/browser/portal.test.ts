import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api";
import { launchBrowser } from "../helpers/browser";
import { startBuiltApp } from "../helpers/built-app";
import { linkToken } from "../helpers/portal";
import { startReceiver } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";

/**
 * The customer portal in Chromium against the production build, a real worker and a real receiver;
 * the host page that embeds it is served from another origin (localhost vs the app's 127.0.0.1).
 */
const HOSTILE = `<script>window.__x=1</script><img src=x onerror="window.__x=1">`;
let app: Awaited<ReturnType<typeof startBuiltApp>>;
let browser: Browser;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let api: Awaited<ReturnType<typeof apiClient>>;
let host: Server;
let hostOrigin: string;
let endpointId: string;

beforeAll(async () => {
  receiver = await startReceiver((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(`thanks ${HOSTILE}`));
  host = createServer((req, res) => {
    const src = new URL(req.url ?? "/", "http://x").searchParams.get("src") ?? "";
    res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>host</title>
<script>window.received=[];addEventListener("message",(e)=>window.received.push({origin:e.origin,data:e.data}));</script>
<iframe id="portal" allow="clipboard-write" style="width:900px;height:600px;border:0" src="${src.replace(/"/g, "&quot;")}"></iframe>`);
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  hostOrigin = `http://localhost:${(host.address() as AddressInfo).port}`;
  api = await apiClient();
  await api.post("/api/v1/consumers", { uid: "acme", name: "Acme" });
  await api.post("/api/v1/consumers", { uid: "globex", name: "Globex" });
  await api.post("/api/v1/event-types", { name: "invoice.paid", description: "An invoice was paid.", example: { invoice: { id: "inv_1", amount: 1200 } } });
  endpointId = (await api.post("/api/v1/consumers/acme/endpoints", { url: `${receiver.url}/existing`, description: HOSTILE })).body.id;
  worker = await startTestWorker();
  app = await startBuiltApp({ PORTAL_FRAME_ANCESTORS: `'self' ${hostOrigin}`, PORTAL_NAME: "Acme Cloud" });
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await worker?.stop();
  await receiver?.close();
  await new Promise((resolve) => host?.close(resolve));
});

/** A fresh link's address on the built app (the in-process API names this process's APP_URL). */
async function mintLink(consumer: string, link: Record<string, unknown> = {}): Promise<string> {
  const minted = await api.post(`/api/v1/consumers/${consumer}/portal-links`, link);
  if (minted.status !== 201) throw new Error(`portal link: ${minted.status} ${minted.text}`);
  return `${app.url}/portal#token=${linkToken(minted.body.url)}`;
}

async function newPage(locale = "en-US"): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale, timezoneId: "Asia/Tokyo" });
  return { context, page: await context.newPage() };
}

describe("the customer portal in Chromium", () => {
  it("opens a minted link on the endpoints list, drops the token from the address, and keeps the session over a reload", async () => {
    const { context, page } = await newPage();
    await page.goto(await mintLink("acme"));
    await page.getByRole("heading", { name: "Endpoints", level: 1 }).waitFor();
    await page.getByRole("row", { name: `${receiver.url}/existing` }).waitFor();
    expect(page.url()).toBe(`${app.url}/portal`);
    expect(await page.getByTestId("portal-product").textContent()).toBe("Acme Cloud");
    await page.reload();
    await page.getByRole("row", { name: `${receiver.url}/existing` }).waitFor();
    await context.close();
  });

  it("shows a used link as expired, in words", async () => {
    const url = await mintLink("acme");
    const first = await newPage();
    await first.page.goto(url);
    await first.page.getByRole("heading", { name: "Endpoints", level: 1 }).waitFor();
    const second = await newPage();
    await second.page.goto(url);
    await second.page.getByRole("heading", { name: "This link has expired or was already used" }).waitFor();
    expect(await second.page.getByTestId("portal-ended").textContent()).toContain("Ask Acme Cloud for a new one.");
    await first.context.close();
    await second.context.close();
  });

  it("lets only PORTAL_FRAME_ANCESTORS frame /portal, and keeps every other page unframeable", async () => {
    const portal = await fetch(`${app.url}/portal`);
    expect(portal.headers.get("content-security-policy")).toBe(`frame-ancestors 'self' ${hostOrigin}`);
    expect(portal.headers.get("x-frame-options")).toBeNull();
    const detail = await fetch(`${app.url}/portal/endpoints/${endpointId}`);
    expect(detail.headers.get("content-security-policy")).toBe(`frame-ancestors 'self' ${hostOrigin}`);
    const login = await fetch(`${app.url}/login`);
    expect(login.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
    expect(login.headers.get("x-frame-options")).toBe("DENY");
  });

  it("works inside an iframe on another origin and tells only that origin it is ready and how tall it is", async () => {
    const { context, page } = await newPage();
    await page.goto(`${hostOrigin}/?src=${encodeURIComponent(await mintLink("acme"))}`);
    const frame = page.frameLocator("#portal");
    await frame.getByRole("row", { name: `${receiver.url}/existing` }).waitFor();
    type Received = { origin: string; data: { type: string; height?: number } };
    const received = () => page.evaluate(() => (window as unknown as { received: Received[] }).received);
    await expect.poll(async () => (await received()).map((m) => m.data.type)).toContain("webhook-admin:ready");
    await expect.poll(async () => (await received()).some((m) => m.data.type === "webhook-admin:resize" && (m.data.height ?? 0) > 100)).toBe(true);
    expect(new Set((await received()).map((m) => m.origin))).toEqual(new Set([app.url]));
    await context.close();
  });
});
