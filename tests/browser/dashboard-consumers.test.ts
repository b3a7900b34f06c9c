import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOperator } from "../../lib/operators";
import { apiClient } from "../helpers/api";
import { browserSuite } from "../helpers/browser-suite";
import { createConsumer, createEndpoint } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";
import { systemCtx } from "../../lib/open-ctx";

/** Consumers, endpoint detail, alerts and audit in Chromium, against the build, a real worker and real receivers. */
const PASSWORD = "correct horse battery";
const suite = browserSuite();
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let endpointId: string;

beforeAll(async () => {
  const system = systemCtx();
  await createOperator({ ctx: system, input: { email: "admin@example.com", password: PASSWORD, role: "admin" } });
  await createOperator({ ctx: system, input: { email: "viewer@example.com", password: PASSWORD, role: "viewer" } });
  receiver = await startReceiver((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<b>got it</b><script>window.pwned=1</script>"));
  const api = await apiClient();
  await createConsumer(api, { uid: "acme-corp", name: "Acme Corporation" });
  await createConsumer(api, { uid: "globex", name: "Globex" });
  endpointId = (await createEndpoint(api, "acme-corp", `${receiver.url}/hook`, { description: "billing" })).id;
  worker = await startTestWorker();
  await suite.open();
}, 600_000);

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

const signedIn = (email: string, locale = "en-US") => suite.signedIn(email, PASSWORD, { locale, clipboard: true });

describe("consumers and endpoints in Chromium", () => {
  it("finds a consumer, opens its endpoint, disables and enables it, reveals the secret (audited) and sends a test", async () => {
    const { context, page } = await signedIn("admin@example.com");
    await page.goto("/consumers");
    await page.getByLabel("Search").fill("acme");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/\?q=acme$/);
    await page.getByRole("row", { name: "Globex" }).waitFor({ state: "detached" });
    // Globex also leaves while the search's page loads: the search's own answer is what has Acme alone.
    await page.getByRole("link", { name: "Acme Corporation" }).waitFor();
    expect(await page.getByRole("row").count()).toBe(2);
    expect(await page.getByRole("row", { name: "Globex" }).count()).toBe(0);
    await page.getByRole("link", { name: "Acme Corporation" }).click();
    await page.getByRole("heading", { name: "Acme Corporation", level: 1 }).waitFor();
    await page.getByRole("link", { name: `${receiver.url}/hook` }).click();
    await page.waitForURL(`**/endpoints/${endpointId}`);
    await expect.poll(() => page.getByTestId("endpoint-state").textContent()).toBe("Healthy");

    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Disable" }).click();
    await page.getByText("Endpoint disabled").first().waitFor();
    await expect.poll(() => page.getByTestId("endpoint-state").textContent()).toBe("Disabled");
    await page.getByRole("button", { name: "Enable" }).click();
    await expect.poll(() => page.getByTestId("endpoint-state").textContent()).toBe("Healthy");

    await page.getByRole("button", { name: "Reveal secret" }).click();
    const secret = (await page.getByTestId("endpoint-secret").textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Copy secret" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    await page.getByRole("button", { name: "Send test" }).click();
    await waitFor(() => receiver.received.length === 1, { what: "the test delivery" });
    await expect.poll(() => page.getByTestId("test-response-body").textContent(), { timeout: 15_000 }).toBe("<b>got it</b><script>window.pwned=1</script>");
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();

    // Edit: a header line that is not "Name: value" is refused in words before anything is sent.
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    const dialog = page.getByRole("dialog");
    expect(await dialog.getByLabel("Description").inputValue()).toBe("billing");
    await dialog.getByLabel("Description").fill("billing v2");
    await dialog.getByLabel("Headers").fill("no colon here");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByText("Each line must be “Name: value”.").waitFor();
    await dialog.getByLabel("Headers").fill("X-Team: payments");
    await dialog.getByRole("button", { name: "Save" }).click();
    await page.getByText("Endpoint saved").first().waitFor();
    await dialog.waitFor({ state: "detached" });
    const saved = (await (await apiClient()).get(`/api/v1/endpoints/${endpointId}`)).body;
    expect({ description: saved.description, headers: saved.headers }).toEqual({ description: "billing v2", headers: { "X-Team": "payments" } });

    await page.goto(`/audit?target_id=${endpointId}`);
    await page.getByRole("row", { name: "endpoint.secret_viewed" }).waitFor();
    await context.close();
  });

  it("creates a webhook alert channel and sends a test a real receiver gets", async () => {
    const alerts = await startReceiver();
    const { context, page } = await signedIn("admin@example.com");
    await page.goto("/alerts");
    await page.getByRole("button", { name: "Add channel" }).first().click();
    await page.getByLabel("Webhook", { exact: true }).check();
    await page.getByLabel("Name").fill("ops hook");
    await page.getByLabel("URL").fill(`${alerts.url}/alerts`);
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByTestId("channel-secret").waitFor();
    await page.getByRole("button", { name: "Done" }).click();
    const row = page.getByRole("row", { name: "ops hook" });
    await row.getByRole("button", { name: "Test" }).click();
    await page.getByText("Test alert sent to “ops hook”").waitFor();
    await waitFor(() => alerts.received.length > 0, { what: "the test alert" });
    expect(JSON.parse(alerts.received[0]!.body)).toMatchObject({ type: "alert.test" });

    // Renamed with its URL left blank: the stored URL stays (the API shows it masked).
    const api = await apiClient();
    const configOf = async (name: string) =>
      ((await api.get("/api/v1/alert-channels")).body.data as { name: string; config: unknown }[]).find((c) => c.name === name)?.config;
    const before = await configOf("ops hook");
    expect(before).toBeDefined();
    await row.getByRole("button", { name: "Edit" }).click();
    await page.getByRole("dialog", { name: "Edit “ops hook”" }).getByLabel("Name").fill("ops hook 2");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("row", { name: "ops hook 2" }).waitFor();
    expect(await configOf("ops hook 2")).toEqual(before);
    await page.getByRole("row", { name: "ops hook 2" }).getByRole("button", { name: "Test" }).click();
    await waitFor(() => alerts.received.length > 1, { what: "a test alert to the kept URL" });

    // A kind without a secret closes on create.
    await page.getByRole("button", { name: "Add channel" }).first().click();
    await page.getByLabel("Slack", { exact: true }).check();
    await page.getByLabel("Name").fill("team chat");
    await page.getByLabel("Webhook URL").fill("https://hooks.slack.com/services/T0/B0/x");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await page.getByRole("row", { name: "team chat" }).waitFor();
    await context.close();
    await alerts.close();
  });

  it("opens the consumer's portal in a new tab with a fresh link, and ends its sessions", async () => {
    const { context, page } = await signedIn("admin@example.com");
    await page.goto("/consumers/acme-corp");
    const [portal] = await Promise.all([context.waitForEvent("page"), page.getByRole("button", { name: "Open portal as this consumer" }).click()]);
    await portal.getByRole("row", { name: `${receiver.url}/hook` }).waitFor();
    expect(new URL(portal.url()).pathname).toBe("/portal");
    await page.getByRole("button", { name: "End portal sessions" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "End portal sessions" }).click();
    await page.getByText("Portal sessions ended").first().waitFor();
    await portal.getByRole("link", { name: "Alert emails" }).click();
    await portal.getByRole("heading", { name: "Your session has ended" }).waitFor();
    await context.close();
  });

  it("shows a viewer the controls disabled, and the server refuses the viewer's disable", async () => {
    const { context, page } = await signedIn("viewer@example.com");
    await page.goto("/consumers/acme-corp");
    expect(await page.getByRole("button", { name: "Open portal as this consumer" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "End portal sessions" }).isDisabled()).toBe(true);
    await page.goto(`/endpoints/${endpointId}`);
    expect(await page.getByRole("button", { name: "Disable" }).isDisabled()).toBe(true);
    const cookie = (await context.cookies(suite.app.url)).map((c) => `${c.name}=${c.value}`).join("; ");
    const res = await fetch(`${suite.app.url}/api/v1/endpoints/${endpointId}/disable`, { method: "POST", headers: { cookie, origin: suite.app.url } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe("forbidden");
    await context.close();
  });

  it("switches an endpoint's screen to Japanese", async () => {
    const { context, page } = await signedIn("admin@example.com");
    await page.goto(`/endpoints/${endpointId}`);
    await page.getByRole("button", { name: "Language" }).click();
    await page.getByRole("menuitemradio", { name: "日本語" }).click();
    await page.getByRole("button", { name: "シークレットを表示" }).waitFor();
    await page.getByText("テストイベントを送信").waitFor();
    await context.close();
  });
});
