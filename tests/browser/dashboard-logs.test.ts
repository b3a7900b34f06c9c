import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOperator } from "../../lib/operators";
import { apiClient, type Api } from "../helpers/api";
import { clickUntilShown } from "../helpers/browser";
import { expectFailedAttemptAsText } from "../helpers/browser";
import { browserSuite } from "../helpers/browser-suite";
import { consumerWithEndpoint, sendMessage } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";
import { systemCtx } from "../../lib/open-ctx";

// One attempt per delivery, so a failing receiver leaves failed deliveries to resend and recover.
process.env.DELIVERY_SCHEDULE = "0";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";
process.env.RECOVERY_TICK = "50ms";
process.env.RECOVERY_RAMP_EVERY = "1ms";

/** The message log and recoveries in a real Chromium against the production build. */
const PASSWORD = "correct horse battery";
const suite = browserSuite();
const HOSTILE_BODY = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">`;
const HOSTILE_NOTE = `<img src=x onerror="window.__pwned=3">`;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let api: Api;
let failing = true;
const sent: Record<string, string> = {};

beforeAll(async () => {
  await createOperator({ ctx: systemCtx(), input: { email: "admin@example.com", password: PASSWORD, role: "admin" } });
  api = await apiClient();
  receiver = await startReceiver((_req, res) => (failing ? res.writeHead(500, { "content-type": "text/html" }).end(HOSTILE_BODY) : res.writeHead(200).end("ok")));
  worker = await startTestWorker();
  await consumerWithEndpoint(api, `${receiver.url}/hook`, { consumer: { uid: "acme", name: "Acme" } });
  for (const [name, eventType, payload] of [
    ["paid", "invoice.paid", { invoice: { id: "inv_1", status: "paid" }, note: HOSTILE_NOTE }],
    ["open", "invoice.created", { invoice: { id: "inv_2", status: "open" } }],
  ] as const) {
    sent[name] = (await sendMessage(api, "acme", { event_type: eventType, payload })).id;
  }
  await waitFor(async () => (await api.get("/api/v1/messages?consumer=acme&status=failed")).body.data.length === 2, { what: "both deliveries failed" });
  await suite.open();
}, 600_000);

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

const signedIn = (locale = "en-US") => suite.signedIn("admin@example.com", PASSWORD, { locale });

describe("the message log and recoveries in Chromium", () => {
  it("lists messages, filters by the URL, and finds one by payload search", async () => {
    const { context, page } = await signedIn();
    await page.goto("/messages");
    await page.getByRole("row", { name: sent.paid }).waitFor();
    await page.getByRole("row", { name: sent.open }).waitFor();

    await page.goto("/messages?event_type=invoice.created");
    await page.getByRole("row", { name: sent.open }).waitFor();
    expect(await page.getByRole("row", { name: sent.paid }).count()).toBe(0);
    expect(await page.getByLabel("Event type").inputValue()).toBe("invoice.created");

    await page.getByRole("button", { name: "Clear filters" }).first().click();
    await page.getByRole("row", { name: sent.paid }).waitFor();
    await page.getByLabel("Payload contains (JSON)").fill('{"invoice": {"status": "paid"}}');
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL((url) => url.searchParams.get("payload_contains") === '{"invoice": {"status": "paid"}}');
    // The open invoice leaves with the old page (a skeleton shows meanwhile); then the search's row arrives.
    await page.getByRole("row", { name: sent.open }).waitFor({ state: "detached" });
    await page.getByRole("row", { name: sent.paid }).waitFor();
    expect(await page.getByRole("row", { name: sent.open }).count()).toBe(0);

    await page.getByLabel("Payload contains (JSON)").fill("{not json");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.getByText("Not a JSON object or array").waitFor();
    await context.close();
  });

  it("shows a message's attempts with hostile bodies as text, and a resend's new attempt", async () => {
    const { context, page } = await signedIn();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto("/messages");
    await page.getByRole("link", { name: sent.paid }).click();
    await page.getByRole("heading", { name: "Message invoice.paid", level: 1 }).waitFor();
    expect(await page.getByTestId("payload").textContent()).toContain(HOSTILE_NOTE.replaceAll('"', '\\"'));
    await expectFailedAttemptAsText(page, HOSTILE_BODY);
    const attempt = page.getByTestId("attempt");
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

    failing = false;
    await page.getByRole("button", { name: "Resend", exact: true }).click();
    await page.getByText(/Queued a resend to 1 endpoint/).waitFor();
    await expect.poll(() => attempt.count(), { timeout: 20_000 }).toBe(2);
    await page.getByText("HTTP 200").waitFor();
    expect(await page.getByText("Manual resend").count()).toBe(1);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    failing = true;
    await context.close();
  });

  it("creates a recovery from its preview and watches it complete", async () => {
    failing = false;
    const { context, page } = await signedIn();
    await page.goto("/recoveries");
    await page.getByText("No recovery yet").waitFor();
    await page.getByRole("link", { name: "New recovery" }).first().click();
    // The list has a Consumer filter of its own: the form's is only the one on the new page.
    await page.getByRole("heading", { name: "New recovery", level: 1 }).waitFor();
    // The consumer is found by its name and chosen from the list.
    await clickUntilShown(page.getByRole("button", { name: /^Consumer/ }), page.getByRole("combobox", { name: "Search by name or uid" }));
    await page.getByRole("combobox", { name: "Search by name or uid" }).fill("Acm");
    await page.getByRole("option", { name: /Acme/ }).click();
    await expect.poll(() => page.getByRole("button", { name: /^Consumer/ }).textContent()).toContain("Acme");
    expect(await page.getByRole("button", { name: /^Start recovery/ }).count()).toBe(0);
    await page.getByRole("button", { name: "Preview" }).click();
    // One failed delivery is left (the other was resent above): the count shows before the start button.
    await expect.poll(() => page.getByTestId("dry-run-count").textContent()).toMatch(/^1 delivery would be resent/);
    await page.getByRole("button", { name: "Start recovery of 1 delivery" }).click();
    await page.waitForURL(/\/recoveries\/rcv_|\/recoveries\/[^/]+$/);
    await page.getByText("Completed").first().waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId("count-succeeded").textContent()).toBe("1");
    await page.getByRole("row", { name: new RegExp(sent.open!) }).waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/-items\.csv$/);
    expect(readFileSync(await download.path(), "utf8")).toContain(sent.open);
    await page.goto("/recoveries");
    await page.getByTestId("recovery-progress").first().waitFor();
    await context.close();
  });

  it("shows the message log in Japanese", async () => {
    const { context, page } = await signedIn();
    await page.goto("/messages");
    await clickUntilShown(page.getByRole("button", { name: "Language" }), page.getByRole("menuitemradio", { name: "日本語" }));
    await page.getByRole("menuitemradio", { name: "日本語" }).click();
    await page.getByRole("heading", { name: "メッセージ", level: 1 }).waitFor();
    await page.getByRole("button", { name: "絞り込む" }).waitFor();
    await page.goto("/recoveries/new");
    await page.getByRole("button", { name: "プレビュー" }).waitFor();
    await context.close();
  });
});
