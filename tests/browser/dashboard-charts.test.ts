import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { createOperator } from "../../lib/operators";
import { apiClient, type Api } from "../helpers/api";
import { browserSuite } from "../helpers/browser-suite";
import { createConsumer, createEndpoint, sendMessage, sendMessages } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";
import { systemCtx } from "../../lib/open-ctx";

// One attempt a delivery, so attempts = messages; the circuit never opens on these few failures.
process.env.DELIVERY_SCHEDULE = "0";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";

/** The overview's, endpoint detail's and consumer detail's charts in Chromium, after real deliveries with failures. */
const PASSWORD = "correct horse battery";
const suite = browserSuite();
let worker: Awaited<ReturnType<typeof startTestWorker>> | undefined;
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
let api: Api;
const ids = { flaky: "", quiet: "" };

beforeAll(async () => {
  await createOperator({ ctx: systemCtx(), input: { email: "admin@example.com", password: PASSWORD, role: "admin" } });
  // Every third request fails.
  receivers.push(await startReceiver((_req, res, _body, i) => res.writeHead(i % 3 === 2 ? 503 : 200).end("ok")));
  receivers.push(await startReceiver((_req, res) => res.writeHead(200).end("ok")));
  api = await apiClient();
  await createConsumer(api, { uid: "acme", name: "Acme" });
  await createConsumer(api, { uid: "globex", name: "Globex" });
  ids.flaky = (await createEndpoint(api, "acme", `${receivers[0]!.url}/flaky`)).id;
  ids.quiet = (await createEndpoint(api, "acme", `${receivers[1]!.url}/quiet`, { event_types: ["never.sent"] })).id;
  await createEndpoint(api, "globex", `${receivers[1]!.url}/globex`);
  worker = await startTestWorker();
  await sendMessages(api, "acme", 12, "order.paid");
  await sendMessages(api, "globex", 3, "order.paid");
  const sql = getSql();
  await waitFor(async () => (await sql`select 1 from delivery_queue limit 1`).length === 0, { timeout: 60_000, what: "every delivery ended" });
  await suite.open();
}, 600_000);

afterAll(async () => {
  await worker?.stop();
  for (const r of receivers) await r.close();
});

const signedIn = (locale: "en" | "ja" = "en") => suite.signedIn("admin@example.com", PASSWORD, { locale: locale === "ja" ? "ja-JP" : "en-US" });

const text = (locator: Locator) => locator.textContent();

/** Hovers every drawn bar of the volume chart and adds up what the tooltips say, one bucket once. */
async function tooltipTotals(page: Page): Promise<{ attempts: number; failed: number }> {
  const chart = page.getByTestId("stats-volume");
  const bars = chart.locator(".recharts-bar-rectangle path");
  const seen = new Map<string, { attempts: number; failed: number }>();
  // The chart measures its size in an effect: no bars on the first frame.
  await bars.first().waitFor();
  const tip = page.getByTestId("stats-tooltip");
  for (let i = 0; i < (await bars.count()); i++) {
    // Recharts follows the mouse a frame late: leave the chart first, so the tooltip read is this bar's.
    await page.mouse.move(0, 0);
    await tip.waitFor({ state: "detached" });
    await bars.nth(i).hover({ force: true });
    await tip.waitFor();
    const body = (await tip.textContent())!;
    const head = (await tip.locator("p").first().textContent())!;
    seen.set(head, { attempts: Number(/(\d+) attempts?/.exec(body)?.[1] ?? 0), failed: Number(/Failed(\d+)/.exec(body)?.[1] ?? 0) });
  }
  return [...seen.values()].reduce((a, b) => ({ attempts: a.attempts + b.attempts, failed: a.failed + b.failed }), { attempts: 0, failed: 0 });
}

/** How much of the volume chart's width one drawn bar takes: about one over the number of buckets, drawn or not. */
async function barShare(page: Page): Promise<number> {
  const chart = page.getByTestId("stats-volume");
  const gridLocator = chart.locator(".recharts-cartesian-grid");
  const barLocator = chart.locator(".recharts-bar-rectangle path").first();
  // The summary is text from the same answer, drawn before the chart has measured its size (an
  // effect): no bars on that frame — on a busy machine, still none when the summary is read.
  await barLocator.waitFor({ state: "visible" });
  const grid = (await gridLocator.boundingBox())!;
  const bar = (await barLocator.boundingBox())!;
  return bar.width / grid.width;
}

describe("the charts in Chromium", () => {
  it("overview: everyone's attempts, the range switch changes the bucket, and the tooltips add up to the summary", async () => {
    const { context, page } = await signedIn();
    const chart = page.getByTestId("stats-chart");
    await expect.poll(() => text(page.getByTestId("stats-volume-summary"))).toBe("15 attempts in the last 24 hours, 4 failed.");
    expect(await chart.getAttribute("data-bucket")).toBe("hour");
    expect(await text(page.getByTestId("stats-bucket"))).toBe("One bar per hour");
    expect(await text(page.getByTestId("stats-rate-summary"))).toMatch(/^73\.3% succeeded in the last 24 hours; the lowest was \d+(\.\d)?%, at /);
    expect(await text(page.getByTestId("stats-latency-summary"))).toMatch(/^Slowest at .+: p50 [\d,]+ ms, p99 [\d,]+ ms\.$/);
    // A day by the hour: 24 buckets, all but the last empty, yet each keeps its width on the axis.
    expect(await barShare(page)).toBeLessThan(1 / 20);
    expect(await tooltipTotals(page)).toEqual({ attempts: 15, failed: 4 });

    await page.getByRole("group", { name: "Time range" }).getByRole("button", { name: "Last hour" }).click();
    await expect.poll(() => chart.getAttribute("data-bucket")).toBe("minute");
    expect(await page.getByRole("button", { name: "Last hour" }).getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => text(page.getByTestId("stats-volume-summary"))).toBe("15 attempts in the last hour, 4 failed.");
    expect(await text(page.getByTestId("stats-bucket"))).toBe("One bar per minute");
    expect(await barShare(page)).toBeLessThan(1 / 50);
    expect(await tooltipTotals(page)).toEqual({ attempts: 15, failed: 4 });

    await page.getByRole("button", { name: "Last 7 days" }).click();
    await expect.poll(() => text(page.getByTestId("stats-volume-summary"))).toBe("15 attempts in the last 7 days, 4 failed.");
    expect(await chart.getAttribute("data-bucket")).toBe("hour");

    // The queue is empty after the run: nothing pending, nothing waiting.
    expect(await text(page.getByTestId("tile-pending"))).toBe("0");
    expect(await text(page.getByTestId("tile-oldestDue"))).toBe("None");
    // Who used the engine: every attempt of the last minutes, by consumer; nobody waiting.
    expect(await page.getByTestId("load-shares").getByRole("listitem").allInnerTexts()).toEqual(["Acme: 80% of attempts (12)", "Globex: 20% of attempts (3)"]);
    expect(await text(page.getByTestId("load-waiting-empty"))).toContain("Nothing is waiting");
    if (process.env.CHART_SHOTS) await page.getByTestId("consumer-load").screenshot({ path: `${process.env.CHART_SHOTS}/consumer-load.png` });
    await context.close();
  });

  it("endpoint detail: one endpoint's attempts; an endpoint without any says so in words", async () => {
    const { context, page } = await signedIn();
    await page.goto(`/endpoints/${ids.flaky}`);
    await expect.poll(() => text(page.getByTestId("stats-volume-summary"))).toBe("12 attempts in the last 24 hours, 4 failed.");
    expect(await text(page.getByTestId("stat-attempts"))).toBe("12");
    expect(await text(page.getByTestId("stats-rate-summary"))).toMatch(/^66\.7% succeeded in the last 24 hours;/);
    expect(await tooltipTotals(page)).toEqual({ attempts: 12, failed: 4 });

    await page.goto(`/endpoints/${ids.quiet}`);
    await expect.poll(() => text(page.getByTestId("stats-empty"))).toBe("No attempts in the last 24 hours.");
    await page.getByRole("button", { name: "Last hour" }).click();
    await expect.poll(() => text(page.getByTestId("stats-empty"))).toBe("No attempts in the last hour.");
    expect(await page.getByTestId("stats-volume").count()).toBe(0);
    await context.close();
  });

  it("consumer detail: a sparkline per endpoint that says its success rate in words", async () => {
    const { context, page } = await signedIn();
    await page.goto("/consumers/acme");
    const flaky = page.getByRole("row", { name: `${receivers[0]!.url}/flaky` });
    const quiet = page.getByRole("row", { name: `${receivers[1]!.url}/quiet` });
    await expect.poll(() => flaky.getByRole("img").getAttribute("aria-label")).toBe("66.7% of 12 attempts succeeded in the last 24 h");
    await expect.poll(() => quiet.getByRole("img").getAttribute("aria-label")).toBe("No attempts in the last 24 h");
    // The weight: refused out of range in words, saved in range.
    const weight = page.getByLabel("Weight");
    expect(await weight.inputValue()).toBe("1");
    await weight.fill("101");
    await page.getByText("A whole number from 1 to 100.").waitFor();
    await weight.fill("5");
    await weight.locator("xpath=ancestor::form").getByRole("button", { name: "Save" }).click();
    await page.getByText("Weight saved").first().waitFor();
    if (process.env.CHART_SHOTS) await page.screenshot({ path: `${process.env.CHART_SHOTS}/consumer-weight.png`, fullPage: true });
    await expect.poll(async () => (await api.get("/api/v1/consumers/acme")).body.weight).toBe(5);
    await context.close();
  });

  it("speaks Japanese", async () => {
    const { context, page } = await signedIn("ja");
    await expect.poll(() => text(page.getByTestId("stats-volume-summary"))).toBe("直近 24 時間の試行は 15 件、うち失敗 4 件。");
    expect(await text(page.getByTestId("stats-bucket"))).toBe("1 本の棒が 1 時間");
    await page.getByRole("group", { name: "期間" }).getByRole("button", { name: "直近 1 時間" }).click();
    await expect.poll(() => text(page.getByTestId("stats-volume-summary"))).toBe("直近 1 時間の試行は 15 件、うち失敗 4 件。");
    expect(await text(page.getByTestId("stats-rate-summary"))).toMatch(/^直近 1 時間の成功率は 73\.3%。/);
    // Who is using the engine, in Japanese.
    expect(await page.getByTestId("consumer-load").getByRole("heading", { level: 2 }).innerText()).toBe("エンジンの利用状況");
    expect(await page.getByTestId("load-shares").getByRole("listitem").first().innerText()).toBe("Acme: 試行の 80%（12 回）");
    if (process.env.CHART_SHOTS) await page.getByTestId("consumer-load").screenshot({ path: `${process.env.CHART_SHOTS}/consumer-load-ja.png` });
    await page.goto(`/endpoints/${ids.quiet}`);
    await expect.poll(() => text(page.getByTestId("stats-empty"))).toBe("直近 24 時間の試行はありません。");
    await page.goto("/consumers/acme");
    await expect
      .poll(() => page.getByRole("row", { name: `${receivers[0]!.url}/flaky` }).getByRole("img").getAttribute("aria-label"))
      .toBe("直近 24 時間の試行 12 件のうち 66.7% が成功");
    await page.getByLabel("重み").waitFor();
    if (process.env.CHART_SHOTS) await page.screenshot({ path: `${process.env.CHART_SHOTS}/consumer-weight-ja.png`, fullPage: true });
    await context.close();
  });

  it("says in words that the charts are loading, and why they could not be drawn", async () => {
    const { context, page } = await signedIn();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/v1/stats?*", async (route) => {
      await held;
      await route.fulfill({ status: 503, contentType: "application/problem+json", body: JSON.stringify({ status: 503, code: "service_unavailable", title: "Unavailable" }) });
    });
    await page.goto("/");
    await page.getByRole("status", { name: "Loading the charts…" }).waitFor();
    if (process.env.CHART_SHOTS) await page.screenshot({ path: `${process.env.CHART_SHOTS}/loading.png` });
    release();
    // The query asks twice more on a 5xx before it gives up.
    await expect.poll(() => text(page.getByTestId("stats-chart").getByRole("alert")), { timeout: 15_000 }).toBe("The database cannot be reached right now. Try again shortly.Try again");
    if (process.env.CHART_SHOTS) await page.screenshot({ path: `${process.env.CHART_SHOTS}/error.png` });
    await page.unroute("**/api/v1/stats?*");
    await page.getByRole("button", { name: "Try again" }).click();
    await expect.poll(() => text(page.getByTestId("stats-volume-summary"))).toBe("15 attempts in the last 24 hours, 4 failed.");
    await context.close();
  });

  it("overview: deliveries waiting for a worker show as pending, with how long the oldest has waited", async () => {
    await worker!.stop();
    worker = undefined;
    for (let i = 0; i < 2; i++) await sendMessage(api, "globex", { event_type: "order.paid", payload: { late: i } });
    const { context, page } = await signedIn();
    expect(await text(page.getByTestId("tile-pending"))).toBe("2");
    expect(await text(page.getByTestId("tile-oldestDue"))).toMatch(/ago$|^now$/);
    // The consumer whose work waits, with how much and for how long.
    const waiting = page.getByTestId("consumer-load").getByRole("row", { name: /Globex/ });
    expect(await waiting.getByRole("cell").allInnerTexts()).toEqual([expect.stringMatching(/^Globex\s*globex$/), "2", expect.stringMatching(/ago$|^now$/)]);
    if (process.env.CHART_SHOTS) await page.getByTestId("consumer-load").screenshot({ path: `${process.env.CHART_SHOTS}/consumer-load-waiting.png` });
    await context.close();
  });
});
