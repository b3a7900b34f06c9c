import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, type Api } from "../helpers/api";
import { browserSuite } from "../helpers/browser-suite";
import { createConsumer, createEndpoint } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";

/**
 * The customer portal in Chromium against the production build, a real worker and a real receiver;
 * the host page that embeds it is served from another origin (localhost vs the app's 127.0.0.1).
 */
const HOSTILE = `<script>window.__x=1</script><img src=x onerror="window.__x=1">`;
const suite = browserSuite();
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let api: Api;
let hostOrigin: string;
let endpointId: string;

beforeAll(async () => {
  receiver = await startReceiver((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(`thanks ${HOSTILE}`));
  hostOrigin = await suite.framingHost(
    { width: 900, height: 600 },
    `<script>window.received=[];addEventListener("message",(e)=>window.received.push({origin:e.origin,data:e.data}));</script>\n`,
  );
  api = await apiClient();
  await createConsumer(api, { uid: "acme", name: "Acme" });
  await createConsumer(api, { uid: "globex", name: "Globex" });
  await api.post("/api/v1/event-types", { name: "invoice.paid", description: "An invoice was paid.", example: { invoice: { id: "inv_1", amount: 1200 } } });
  endpointId = (await createEndpoint(api, "acme", `${receiver.url}/existing`, { description: HOSTILE })).id;
  worker = await startTestWorker();
  await suite.open({ PORTAL_FRAME_ANCESTORS: `'self' ${hostOrigin}`, PORTAL_NAME: "Acme Cloud" });
}, 600_000);

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

const mintLink = (consumer: string, link: Record<string, unknown> = {}) => suite.portalLink(api, consumer, link);
const newPage = (locale = "en-US") => suite.newPage({ locale });

describe("the customer portal in Chromium", () => {
  it("opens a minted link on the endpoints list, drops the token from the address, and keeps the session over a reload", async () => {
    const { context, page } = await newPage();
    await page.goto(await mintLink("acme"));
    await page.getByRole("heading", { name: "Endpoints", level: 1 }).waitFor();
    await page.getByRole("row", { name: `${receiver.url}/existing` }).waitFor();
    expect(page.url()).toBe(`${suite.app.url}/portal`);
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
    const portal = await fetch(`${suite.app.url}/portal`);
    expect(portal.headers.get("content-security-policy")).toBe(`frame-ancestors 'self' ${hostOrigin}`);
    expect(portal.headers.get("x-frame-options")).toBeNull();
    const detail = await fetch(`${suite.app.url}/portal/endpoints/${endpointId}`);
    expect(detail.headers.get("content-security-policy")).toBe(`frame-ancestors 'self' ${hostOrigin}`);
    const login = await fetch(`${suite.app.url}/login`);
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
    expect(new Set((await received()).map((m) => m.origin))).toEqual(new Set([suite.app.url]));
    await context.close();
  });

  it("adds an endpoint from the catalog, sends it a test and shows the receiver's answer as text, then disables and enables it", async () => {
    const { context, page } = await newPage();
    await page.goto(await mintLink("acme"));
    await page.getByRole("heading", { name: "Endpoints", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Add an endpoint" });
    await dialog.getByLabel("URL").fill(`${receiver.url}/new`);
    await dialog.getByLabel("Description").fill("orders");
    await dialog.getByText("An invoice was paid.").waitFor();
    await dialog.getByRole("checkbox", { name: /invoice\.paid/ }).check();
    await dialog.getByText("Example payload").click();
    await dialog.getByLabel("Example payload of invoice.paid").getByText('"inv_1"').waitFor();
    await dialog.getByLabel("Headers").fill("X-Team: billing");
    await dialog.getByLabel("Rate limit per second").fill("5");
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/portal\/endpoints\/ep_/);
    const id = page.url().split("/").pop()!;
    const created = await api.get(`/api/v1/endpoints/${id}`);
    expect(created.body).toMatchObject({ url: `${receiver.url}/new`, description: "orders", event_types: ["invoice.paid"], headers: { "X-Team": "billing" }, rate_limit_per_second: 5 });

    const before = receiver.received.length;
    await page.getByRole("button", { name: "Send test" }).click();
    await waitFor(() => receiver.received.slice(before).some((r) => r.path === "/new"), {
      what: "the test delivery",
      timeout: 30_000,
      onTimeout: () => void page.getByTestId("test-result").textContent().then((text) => console.log(`test card: ${text}`), () => console.log("no test card")),
    });
    await expect.poll(() => page.getByTestId("test-response-body").textContent(), { timeout: 15_000 }).toBe(`thanks ${HOSTILE}`);
    expect(await page.evaluate(() => (window as unknown as { __x?: number }).__x)).toBeUndefined();

    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Disable" }).click();
    await expect.poll(() => page.getByTestId("endpoint-state").textContent()).toBe("Disabled");
    await page.getByText("New events are not sent here until you enable it.").waitFor();
    await page.getByRole("button", { name: "Enable" }).click();
    await expect.poll(() => page.getByTestId("endpoint-state").textContent()).toBe("Healthy");
    expect((await api.get(`/api/v1/endpoints/${id}`)).body.state).toBe("active");
    await context.close();
  });

  it("shows a hostile description as text", async () => {
    const { context, page } = await newPage();
    await page.goto(await mintLink("acme"));
    await page.getByRole("row", { name: `${receiver.url}/existing` }).getByText(HOSTILE).waitFor();
    await page.getByRole("link", { name: `${receiver.url}/existing` }).click();
    await expect.poll(() => page.getByTestId("endpoint-description").textContent()).toBe(HOSTILE);
    expect(await page.evaluate(() => (window as unknown as { __x?: number }).__x)).toBeUndefined();
    await context.close();
  });

  it("reveals the signing secret only to a link with view_secrets", async () => {
    const withSecrets = await newPage();
    await withSecrets.page.goto(await mintLink("acme", { capabilities: ["view_secrets"] }));
    await withSecrets.page.getByRole("link", { name: `${receiver.url}/existing` }).click();
    await withSecrets.page.getByRole("button", { name: "Reveal secret" }).click();
    // A wait of its own, not expect.poll over textContent: each poll would wait out Playwright's
    // 30 s for a missing element, and two of them the test's whole 60 s, hiding which step hung.
    const secret = withSecrets.page.getByTestId("endpoint-secret");
    await secret.waitFor();
    expect(await secret.textContent()).toMatch(/^whsec_/);
    await withSecrets.context.close();

    const without = await newPage();
    await without.page.goto(await mintLink("acme", { capabilities: ["manage_endpoints"] }));
    await without.page.getByRole("link", { name: `${receiver.url}/existing` }).click();
    const reveal = without.page.getByRole("button", { name: "Reveal secret" });
    expect(await reveal.isDisabled()).toBe(true);
    await without.page.getByText("Your link does not show signing secrets. Ask Acme Cloud for a link that allows it.").first().waitFor();
    const token = await without.page.evaluate(() => JSON.parse(sessionStorage.getItem("webhook-admin.portal.session")!).session_token as string);
    const refused = await fetch(`${suite.app.url}/api/v1/endpoints/${endpointId}/secret`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(403);
    await without.context.close();
  });

  it("shows a link the Svix API made with ViewEndpointSecret the secret, and its rotation off with the reason", async () => {
    const access = await api.post("/api/v1/auth/app-portal-access/acme", { capabilities: ["ViewBase", "ViewEndpointSecret"] });
    expect(access.status, access.text).toBe(200);
    const { url } = access.body as { url: string };
    const { context, page } = await newPage();
    await page.goto(`${suite.app.url}/portal${new URL(url).hash}`);
    await page.getByRole("link", { name: `${receiver.url}/existing` }).click();
    await page.getByRole("button", { name: "Reveal secret" }).click();
    await page.getByTestId("endpoint-secret").waitFor();
    expect(await page.getByRole("button", { name: "Rotate secret" }).isDisabled()).toBe(true);
    await page.getByText("Your link shows the signing secret but does not rotate it. Ask Acme Cloud for a link that allows rotating it.").waitFor();
    await context.close();
  });

  it("shows a link without manage_endpoints every change disabled with the reason, and the server refuses it (403)", async () => {
    const { context, page } = await newPage();
    await page.goto(await mintLink("acme", { capabilities: ["view_secrets"] }));
    await page.getByTestId("portal-read-only").waitFor();
    expect(await page.getByTestId("portal-read-only").textContent()).toBe(
      "Your link lets you see endpoints but not change them. Ask Acme Cloud for a link that allows managing endpoints.",
    );
    expect(await page.getByRole("button", { name: "Add endpoint" }).isDisabled()).toBe(true);
    await page.getByRole("link", { name: `${receiver.url}/existing` }).click();
    for (const name of ["Edit", "Disable", "Delete", "Send test"]) expect(await page.getByRole("button", { name, exact: true }).isDisabled()).toBe(true);
    const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem("webhook-admin.portal.session")!).session_token as string);
    const refused = await fetch(`${suite.app.url}/api/v1/endpoints/${endpointId}/disable`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe("forbidden");
    await context.close();
  });

  it("starts in the link's language, else the browser's, and switches the whole screen to Japanese", async () => {
    const linked = await newPage("en-US");
    await linked.page.goto(await mintLink("acme", { locale: "ja" }));
    await linked.page.getByRole("heading", { name: "エンドポイント", level: 1 }).waitFor();
    await linked.context.close();

    const browserJa = await newPage("ja-JP");
    await browserJa.page.goto(await mintLink("acme"));
    await browserJa.page.getByRole("heading", { name: "エンドポイント", level: 1 }).waitFor();
    await browserJa.context.close();

    const { context, page } = await newPage("en-US");
    await page.goto(await mintLink("acme"));
    await page.getByRole("link", { name: `${receiver.url}/existing` }).click();
    await page.getByRole("button", { name: "Reveal secret" }).waitFor();
    await page.getByRole("button", { name: "Language" }).click();
    await page.getByRole("menuitemradio", { name: "日本語" }).click();
    await page.getByRole("button", { name: "シークレットを表示" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("ja");
    // Whole screen: no English word left outside the data (URLs, ids, the receiver's own text, numbers).
    const text = await page.locator("body").innerText();
    const data = [receiver.url, HOSTILE, "Acme Cloud", "whsec_", "ms", "p50", "p99", "URL", "HTTP", "English", "2xx"];
    const stray = text
      .split(/\s+/)
      .filter((word) => /[A-Za-z]{3,}/.test(word) && !data.some((d) => d.includes(word) || word.includes(d)));
    expect(stray).toEqual([]);
    await page.reload();
    await page.getByRole("button", { name: "シークレットを表示" }).waitFor();
    await context.close();
  });

  it("saves the consumer's alert emails with a link that manages endpoints, and says why not without", async () => {
    const readOnly = await newPage();
    await readOnly.page.goto(await mintLink("acme", { capabilities: [] }));
    await readOnly.page.getByRole("link", { name: "Alert emails" }).click();
    await readOnly.page.getByText("Your link lets you see these addresses but not change them.").waitFor();
    expect(await readOnly.page.getByLabel("Alert emails").isDisabled()).toBe(true);
    await readOnly.context.close();

    const { context, page } = await newPage();
    await page.goto(await mintLink("acme", { capabilities: ["manage_endpoints"] }));
    await page.getByRole("link", { name: "Alert emails" }).click();
    await page.getByTestId("alert-emails-empty").waitFor();
    await page.getByLabel("Alert emails").fill("ops@acme.example\noncall@acme.example");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Alert emails saved").first().waitFor();
    expect((await api.get("/api/v1/consumers/acme")).body.alert_emails).toEqual(["ops@acme.example", "oncall@acme.example"]);
    await context.close();
  });

  it("ends in words when the SaaS ends the consumer's sessions, and tells the host", async () => {
    const { context, page } = await newPage();
    await page.goto(`${hostOrigin}/?src=${encodeURIComponent(await mintLink("globex"))}`);
    const frame = page.frameLocator("#portal");
    await frame.getByRole("heading", { name: "No endpoints yet" }).waitFor();
    expect((await api.del("/api/v1/consumers/globex/portal-sessions")).status).toBe(204);
    await frame.getByRole("link", { name: "Alert emails" }).click();
    await frame.getByRole("heading", { name: "Your session has ended" }).waitFor();
    type Received = { origin: string; data: { type: string; reason?: string } };
    const received = () => page.evaluate(() => (window as unknown as { received: Received[] }).received);
    await expect.poll(async () => (await received()).find((m) => m.data.type === "webhook-admin:session.expired")?.data.reason).toBe("expired");
    await context.close();
  });

  it("signs out: the session is gone on the server too", async () => {
    const { context, page } = await newPage();
    await page.goto(await mintLink("acme"));
    await page.getByRole("heading", { name: "Endpoints", level: 1 }).waitFor();
    const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem("webhook-admin.portal.session")!).session_token as string);
    await page.getByRole("link", { name: "Alert emails" }).click();
    await page.waitForURL(`${suite.app.url}/portal/alert-emails`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "You signed out" }).waitFor();
    // The router must not have put the spent token back in the address.
    expect(page.url()).toBe(`${suite.app.url}/portal/alert-emails`);
    const after = await fetch(`${suite.app.url}/api/v1/consumers/acme`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    await page.reload();
    await page.getByRole("heading", { name: "Open the portal from a link" }).waitFor();
    await context.close();
  });
});
