import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, call, type Api } from "../helpers/api";
import { expectFailedAttemptAsText } from "../helpers/browser";
import { browserSuite } from "../helpers/browser-suite";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { portalSession } from "../helpers/portal";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";

// One attempt per delivery, so a failing receiver leaves failed deliveries to retry and recover.
process.env.DELIVERY_SCHEDULE = "0";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";
process.env.RECOVERY_TICK = "50ms";
process.env.RECOVERY_RAMP_EVERY = "1ms";

/** The customer portal's delivery log and recover screens in a real Chromium against the production build. */
const HOSTILE_BODY = `<script>window.__x=1</script><img src=x onerror="window.__x=1">`;
const HOSTILE_PAYLOAD = `<img src=x onerror="window.__x=2"><script>window.__x=2</script>`;
const suite = browserSuite();
let worker: Awaited<ReturnType<typeof startTestWorker>> | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let api: Api;
let failing = true;
let acmeId = "";
let hostileId = "";
let theirsId = "";
const recoverable: string[] = [];

const send = async (consumer: string, eventType: string, payload: unknown) => (await sendMessage(api, consumer, { event_type: eventType, payload })).id;

const failedOf = async (consumer: string) => (await api.get(`/api/v1/messages?consumer=${consumer}&status=failed&limit=250`)).body.data.map((m: { id: string }) => m.id) as string[];

beforeAll(async () => {
  api = await apiClient();
  receiver = await startReceiver((_req, res) => (failing ? res.writeHead(500, { "content-type": "text/html" }).end(HOSTILE_BODY) : res.writeHead(200).end("ok")));
  worker = await startTestWorker();
  acmeId = (await createConsumer(api, { uid: "acme", name: "Acme" })).id;
  await createConsumer(api, { uid: "globex", name: "Globex" });
  for (const uid of ["acme", "globex"]) await createEndpoint(api, uid, `${receiver.url}/${uid}`);
  hostileId = await send("acme", "invoice.paid", { invoice: { id: "inv_1" }, note: HOSTILE_PAYLOAD });
  for (let i = 0; i < 3; i++) recoverable.push(await send("acme", "invoice.created", { invoice: { id: `inv_${10 + i}` } }));
  theirsId = await send("globex", "invoice.paid", { secret: "globex-only" });
  await waitFor(async () => (await failedOf("acme")).length === 4 && (await failedOf("globex")).length === 1, { what: "every delivery failed" });
  await suite.open();
}, 600_000);

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

/** A fresh browser signed in to the portal through a one-time link, as a customer would open it. */
async function portal(link: Record<string, unknown> = {}, locale = "en-US"): Promise<Page> {
  const address = await suite.portalLink(api, "acme", link);
  const { page } = await suite.newPage({ locale, context: { acceptDownloads: true } });
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(address);
  await page.waitForURL((url) => url.pathname === "/portal" && url.hash === "");
  await page.getByRole("navigation").getByRole("link").first().waitFor();
  return page;
}
const errors: string[] = [];
const pwned = (page: Page) => page.evaluate(() => (window as { __x?: number }).__x);

describe("the portal's deliveries and recover screens in Chromium", () => {
  it("lists the consumer's deliveries, filtered by the URL, the filters kept across a reload", async () => {
    const page = await portal();
    await page.goto("/portal/deliveries");
    await page.getByRole("heading", { name: "Deliveries", level: 1 }).waitFor();
    for (const id of [hostileId, ...recoverable]) await page.getByRole("row", { name: id }).waitFor();
    expect(await page.getByRole("row", { name: theirsId }).count()).toBe(0);
    expect(await page.getByLabel("Consumer").count()).toBe(0);

    await page.getByLabel("Event type").fill("invoice.created");
    await page.getByLabel("Delivery status").selectOption("failed");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL((url) => url.searchParams.get("event_type") === "invoice.created" && url.searchParams.get("status") === "failed");
    await page.getByRole("row", { name: hostileId }).waitFor({ state: "detached" });
    await page.reload();
    await page.getByRole("row", { name: recoverable[0] }).waitFor();
    expect(await page.getByRole("row", { name: hostileId }).count()).toBe(0);
    expect(await page.getByLabel("Event type").inputValue()).toBe("invoice.created");
    expect(await page.getByLabel("Delivery status").inputValue()).toBe("failed");

    await page.getByLabel("Event type").fill("no.such.event");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.getByText("No message matches these filters").waitFor();
    await page.context().close();
  });

  it("shows a failed delivery's hostile answer and payload as text, and retries one", async () => {
    const page = await portal({ capabilities: ["resend"] });
    await page.goto("/portal/deliveries");
    await page.getByRole("link", { name: hostileId }).click();
    await page.waitForURL(`**/portal/deliveries/${hostileId}`);
    await page.getByRole("heading", { name: "Message invoice.paid", level: 1 }).waitFor();
    expect(await page.getByTestId("payload").textContent()).toContain(HOSTILE_PAYLOAD.replaceAll('"', '\\"'));
    await page.getByTestId("delivery").getByText("Failed").waitFor();
    await expectFailedAttemptAsText(page, HOSTILE_BODY);
    const attempt = page.getByTestId("attempt");
    expect(await page.locator("main").textContent()).toContain("webhook-signature");
    expect(await pwned(page)).toBeUndefined();

    failing = false;
    await page.getByRole("button", { name: "Resend", exact: true }).click();
    await expect.poll(() => attempt.count(), { timeout: 20_000 }).toBe(2);
    await page.getByText("HTTP 200").waitFor();
    expect(await page.getByText("Manual resend").count()).toBe(1);
    await page.getByTestId("delivery").getByText("Succeeded").waitFor();
    expect(await pwned(page)).toBeUndefined();
    failing = true;
    await page.context().close();
  });

  it("shows another consumer's message as not found, naming nothing of theirs", async () => {
    const page = await portal();
    await page.goto(`/portal/deliveries/${theirsId}`);
    await page.getByRole("heading", { name: "No such message" }).waitFor();
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toContain("globex-only");
    expect(text).not.toContain("invoice.paid");
    await page.context().close();
  });

  it("recovers what failed from its dry-run count to a report, paused and resumed, downloaded as CSV", async () => {
    failing = false;
    const failed = await failedOf("acme");
    expect(failed.sort()).toEqual([...recoverable].sort());
    const page = await portal({ capabilities: ["recover"] });
    await page.goto("/portal/recover");
    await page.getByRole("heading", { name: "Recover", level: 1 }).waitFor();
    await page.getByText("No recovery yet").waitFor();
    await page.getByLabel("Messages sent in").selectOption("1h");
    expect(await page.getByRole("button", { name: /^Start recovery/ }).count()).toBe(0);
    await page.getByRole("button", { name: "Preview" }).click();
    await expect.poll(() => page.getByTestId("dry-run-count").textContent()).toMatch(/^3 deliveries would be resent \(1 endpoint\)/);

    // No worker feeds the run until it is paused, so the pause is of a run that has sent nothing.
    await worker!.stop();
    worker = undefined;
    await page.getByRole("button", { name: "Start recovery of 3 deliveries" }).click();
    await page.waitForURL(/\/portal\/recover\/rec_/);
    const runId = page.url().split("/").pop()!;
    await page.getByText("For all my endpoints").waitFor();
    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByTestId("recovery-progress").getByText("Paused").waitFor();
    worker = await startTestWorker();
    await page.getByRole("button", { name: "Resume" }).click();
    await page.getByTestId("recovery-progress").getByText("Completed").waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId("count-succeeded").textContent()).toBe("3");
    expect(await page.getByTestId("count-expected").textContent()).toBe("3");
    for (const id of recoverable) await page.getByRole("row", { name: new RegExp(id) }).waitFor();

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toBe(`${runId}-items.csv`);
    const lines = readFileSync((await download.path())!, "utf8").trim().split("\r\n");
    expect(lines[0]).toMatch(/^delivery_id,message_id,endpoint_id,outcome,/);
    expect(lines.slice(1).map((l) => l.split(",")[1]).sort()).toEqual([...recoverable].sort());
    expect(lines.slice(1).every((l) => l.split(",")[3] === "succeeded")).toBe(true);

    await page.getByLabel("Outcome").selectOption("failed");
    await page.getByText("None has this outcome").waitFor();
    await page.getByRole("link", { name: "Recover" }).first().click();
    await page.getByRole("row", { name: new RegExp(runId) }).waitFor();
    expect(await failedOf("acme")).toEqual([]);
    await page.context().close();
  });

  it("says why a session without resend or recover cannot, and the server refuses it", async () => {
    const page = await portal({ capabilities: ["manage_endpoints"] });
    await page.goto(`/portal/deliveries/${hostileId}`);
    await page.getByText("This link does not allow resending.").first().waitFor();
    expect(await page.getByRole("button", { name: "Resend", exact: true }).isDisabled()).toBe(true);
    await page.goto("/portal/recover");
    await page.getByText("This link does not allow recoveries").first().waitFor();
    expect(await page.getByRole("button", { name: "Preview" }).isDisabled()).toBe(true);
    await page.getByRole("link", { name: /^rec_/ }).first().click();
    await page.getByText("you can follow this run, but not pause").waitFor();
    await page.context().close();

    // What the page does not offer, the server refuses to such a session anyway.
    const { token } = await portalSession(api, "acme", { capabilities: ["manage_endpoints"] });
    const endpointId = (await api.get(`/api/v1/messages/${hostileId}`)).body.deliveries[0].endpoint_id;
    const since = new Date(Date.now() - 3_600_000).toISOString();
    expect((await call("POST", `/api/v1/consumers/${acmeId}/recover`, { key: token, body: { since, dry_run: true } })).status).toBe(403);
    expect((await call("POST", `/api/v1/messages/${hostileId}/resend`, { key: token, body: { endpoint_id: endpointId } })).status).toBe(403);
  });

  it("shows both screens wholly in Japanese", async () => {
    const page = await portal({ locale: "ja" }, "ja-JP");
    // What may stay in Latin letters: ids, event types, and the names of formats and protocols.
    const untranslated = async () =>
      ((await page.locator("main").innerText()) ?? "")
        .replace(/\b(msg|ep|rec|con|dlv|att)_[A-Za-z0-9]+/g, "")
        .replace(/\b[a-z]+\.[a-z.]+\b/g, "")
        .replace(/\bhttps?:\/\/\S+/g, "")
        .replace(/\b(CSV|HTTP|JSON|ID|ms)\b/g, "")
        .match(/[A-Za-z]{3,}/g) ?? [];
    await page.goto("/portal/deliveries");
    await page.getByRole("heading", { name: "配信履歴", level: 1 }).waitFor();
    await page.getByRole("row", { name: hostileId }).waitFor();
    expect(await untranslated()).toEqual([]);
    await page.goto("/portal/recover");
    await page.getByRole("heading", { name: "一括再送", level: 1 }).waitFor();
    await page.getByRole("button", { name: "プレビュー" }).waitFor();
    await page.getByRole("row").nth(1).waitFor();
    expect(await untranslated()).toEqual([]);
    await page.getByRole("link", { name: /^rec_/ }).first().click();
    await page.getByText("照合レポート").waitFor();
    await page.getByRole("row").nth(1).waitFor();
    expect(await untranslated()).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("opens an endpoint's deliveries and its recovery from the endpoint's page, chosen by URL", async () => {
    const second = await createEndpoint(api, "acme", `${receiver.url}/acme-second`, { event_types: ["second.only"] });
    failing = true;
    const onlySecond = await send("acme", "second.only", { n: 1 });
    // Both endpoints get it (the first takes every event type); both must have failed before the receiver heals.
    await waitFor(
      async () => {
        const { deliveries } = (await api.get(`/api/v1/messages/${onlySecond}`)).body as { deliveries: { status: string }[] };
        return deliveries.length === 2 && deliveries.every((d) => d.status === "failed");
      },
      { what: "both endpoints' deliveries failed" },
    );
    failing = false;
    const page = await portal({ capabilities: ["recover"] });
    await page.goto(`/portal/endpoints/${second.id}`);
    await page.getByRole("link", { name: "See deliveries" }).click();
    await page.waitForURL((url) => url.pathname === "/portal/deliveries" && url.searchParams.get("endpoint_id") === second.id);
    await page.getByRole("row", { name: onlySecond }).waitFor();
    expect(await page.getByRole("row", { name: hostileId }).count()).toBe(0);
    const filter = page.getByLabel("Endpoint", { exact: true });
    // The consumer's endpoints may arrive after the rows; until then the option says the id.
    await expect.poll(() => filter.locator("option:checked").textContent()).toBe(`${receiver.url}/acme-second`);
    // The first endpoint, chosen by its URL (it takes every event type, so both messages).
    await filter.selectOption({ label: `${receiver.url}/acme` });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL((url) => url.searchParams.get("endpoint_id") !== second.id);
    await page.getByRole("row", { name: hostileId }).waitFor();

    await page.goto(`/portal/endpoints/${second.id}`);
    await page.getByRole("link", { name: "Re-send failed deliveries" }).click();
    await page.waitForURL((url) => url.pathname === "/portal/recover");
    const target = page.getByLabel("Resend for");
    expect(await target.locator("option:checked").textContent()).toBe(`${receiver.url}/acme-second`);
    const options = await target.locator("option").allTextContents();
    expect(options[0]).toBe("All my endpoints");
    expect(options.slice(1).sort()).toEqual([`${receiver.url}/acme`, `${receiver.url}/acme-second`]);
    await page.getByLabel("Messages sent in").selectOption("1h");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect.poll(() => page.getByTestId("dry-run-count").textContent()).toMatch(/^1 delivery would be resent/);
    await page.getByRole("button", { name: /^Start recovery/ }).click();
    await page.waitForURL(/\/portal\/recover\/rec_/);
    await page.getByText(`For ${receiver.url}/acme-second`).waitFor();
    await page.getByTestId("recovery-progress").getByText("Completed").waitFor({ timeout: 30_000 });
    expect(await page.getByRole("row", { name: new RegExp(onlySecond) }).textContent()).toContain(`${receiver.url}/acme-second`);
    // Only that endpoint's delivery was resent: the first endpoint's, of the same message, is still failed.
    const deliveries = (await api.get(`/api/v1/messages/${onlySecond}`)).body.deliveries as { endpoint_id: string; status: string }[];
    expect(Object.fromEntries(deliveries.map((d) => [d.endpoint_id === second.id ? "second" : "first", d.status]))).toEqual({ second: "succeeded", first: "failed" });
    await page.context().close();
  });
});
