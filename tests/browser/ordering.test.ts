import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOperator } from "../../lib/operators";
import { apiClient, type Api } from "../helpers/api";
import { clickUntilShown } from "../helpers/browser";
import { browserSuite } from "../helpers/browser-suite";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";
import { systemCtx } from "../../lib/open-ctx";

// A failed first attempt is retried an hour later: the line it heads waits, still, while the tests look.
process.env.DELIVERY_SCHEDULE = "0,1h";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";

/**
 * Ordered delivery on the endpoint's page (issue 36), in Chromium against the production build: set
 * through the form (a bad key refused beside its field), the lines waiting behind a failing head
 * with their counts and heads in the dashboard, in Japanese and in the portal, and a resend of a
 * head said to go outside the endpoint's order.
 */
const PASSWORD = "correct horse battery";
const suite = browserSuite();
let api: Api;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const ids = { plain: "", lines: "" };
/** The messages heading the two lines: seq 1 (customer cus_1) and seq 4 (no customer). */
const heads = { keyed: "", unkeyed: "" };
const FAILING = new Set([1, 4]);

beforeAll(async () => {
  await createOperator({ ctx: systemCtx(), input: { email: "admin@example.com", password: PASSWORD, role: "admin" } });
  api = await apiClient();
  receiver = await startReceiver((_req, res, body) => void res.writeHead(FAILING.has((JSON.parse(body) as { data: { seq: number } }).data.seq) ? 500 : 204).end());
  worker = await startTestWorker();
  // Set in order through the form by the first test; its consumer gets no messages.
  await createConsumer(api, { uid: "globex", name: "Globex" });
  ids.plain = (await createEndpoint(api, "globex", `${receiver.url}/plain`, { description: "Plain" })).id;
  await createConsumer(api, { uid: "acme", name: "Acme" });
  ids.lines = (await createEndpoint(api, "acme", `${receiver.url}/orders`, { description: "Orders", ordering: "ordered", ordering_key: "data.customer_id" })).id;
  // cus_1: seq 1 fails, 2 and 3 wait behind it; no customer: seq 4 fails, 5 waits; cus_2 is delivered and waits for nothing.
  const sent: string[] = [];
  for (const [seq, customer] of [[1, "cus_1"], [2, "cus_1"], [3, "cus_1"], [4, null], [5, null], [6, "cus_2"]] as const) {
    const data = customer === null ? { seq } : { seq, customer_id: customer };
    sent.push((await sendMessage(api, "acme", { event_type: "order.placed", payload: { data } })).id);
  }
  heads.keyed = sent[0]!;
  heads.unkeyed = sent[3]!;
  await waitFor(
    async () => {
      const { body } = await api.get(`/api/v1/endpoints/${ids.lines}/lines`);
      return body.lines_waiting === 2 && body.messages_waiting === 3 && (body.lines as { head: { attempts: number } }[]).every((l) => l.head.attempts === 1);
    },
    { timeout: 30_000, what: "two lines held by their failed heads" },
  );
  await suite.open();
}, 600_000);

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

async function dashboard(locale = "en-US"): Promise<Page> {
  const { page } = await suite.signedIn("admin@example.com", PASSWORD, { locale, scoped: true });
  return page;
}

/** Each listed line as the card shows it: key, waiting, head (its link's text and title), attempts, last answer. */
async function shownLines(page: Page) {
  const rows = page.getByTestId("ordering-card").getByTestId("ordering-line");
  const out: { key: string; waiting: string; head: string | null; attempts: string; answer: string }[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const cells = rows.nth(i).locator("td");
    out.push({
      key: (await rows.nth(i).getByTestId("line-key").textContent())!,
      waiting: (await rows.nth(i).getByTestId("line-waiting").textContent())!,
      head: await rows.nth(i).getByTestId("line-head").getAttribute("title"),
      attempts: (await cells.nth(3).textContent())!,
      answer: (await rows.nth(i).getByTestId("line-answer").textContent())!,
    });
  }
  return out;
}

describe("ordered delivery in Chromium", () => {
  it("sets an endpoint in order through the form, refusing a bad key beside its field, and shows its card", async () => {
    const page = await dashboard();
    await page.goto(`/endpoints/${ids.plain}`);
    await expect.poll(() => page.getByTestId("ordering-fact").textContent()).toBe("Any order");
    expect(await page.getByTestId("ordering-card").count()).toBe(0);

    const dialog = page.getByRole("dialog", { name: "Edit endpoint" });
    await clickUntilShown(page.getByRole("button", { name: "Edit", exact: true }), dialog);
    expect(await dialog.getByLabel("Ordering key").count()).toBe(0);
    await dialog.getByRole("radio", { name: /^In order/ }).check();
    const key = dialog.getByLabel("Ordering key");
    await key.waitFor();
    await dialog.getByText("A dotted path into the payload, e.g. data.customer_id: each value is its own line. Empty: the whole endpoint is one line.").waitFor();

    await key.fill("data..customer_id");
    await dialog.getByRole("button", { name: "Save" }).click();
    const error = dialog.locator("#endpoint-ordering-key-error");
    await error.waitFor();
    expect(await error.textContent()).toContain('"data..customer_id" is not a dotted path');
    expect(await key.getAttribute("aria-invalid")).toBe("true");
    expect((await api.get(`/api/v1/endpoints/${ids.plain}`)).body).toMatchObject({ ordering: "none", ordering_key: null });

    await key.fill("data.customer_id");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    expect((await api.get(`/api/v1/endpoints/${ids.plain}`)).body).toMatchObject({ ordering: "ordered", ordering_key: "data.customer_id" });
    await expect.poll(() => page.getByTestId("ordering-fact").textContent()).toBe("In order, by data.customer_id");
    const card = page.getByTestId("ordering-card");
    expect(await card.getByTestId("ordering-key").textContent()).toBe("data.customer_id");
    const none = card.getByTestId("ordering-none");
    await none.waitFor();
    await none.getByText("No line is waiting", { exact: true }).waitFor();
    await none.getByText("Every message is delivered as it comes.", { exact: true }).waitFor();

    // Opened again, the form says what is stored.
    await clickUntilShown(page.getByRole("button", { name: "Edit", exact: true }), dialog);
    expect(await dialog.getByRole("radio", { name: /^In order/ }).isChecked()).toBe(true);
    expect(await dialog.getByLabel("Ordering key").inputValue()).toBe("data.customer_id");
  });

  it("lists the lines waiting behind their failed heads, most first, each head linked to its message", async () => {
    const page = await dashboard();
    await page.goto(`/endpoints/${ids.lines}`);
    const card = page.getByTestId("ordering-card");
    await card.getByRole("heading", { name: "Delivery order" }).waitFor();
    await expect.poll(() => card.getByTestId("ordering-summary").textContent()).toBe("2 lines held up, 3 messages waiting");
    expect(await shownLines(page)).toEqual([
      { key: "cus_1", waiting: "2", head: heads.keyed, attempts: "1", answer: "HTTP 500" },
      { key: "(no key)", waiting: "1", head: heads.unkeyed, attempts: "1", answer: "HTTP 500" },
    ]);
    // The retry is an hour away.
    expect(await card.getByTestId("ordering-line").first().locator("time").textContent()).toMatch(/^in /);
    await card.getByTestId("line-head").first().click();
    await page.waitForURL(`${suite.app.url}/messages/${heads.keyed}`);
    await page.getByRole("heading", { name: "Message order.placed", level: 1 }).waitFor();
  });

  it("speaks Japanese: the card's words, its columns and the line without a key", async () => {
    const page = await dashboard("ja-JP");
    await page.goto(`/endpoints/${ids.lines}`);
    const card = page.getByTestId("ordering-card");
    await card.getByRole("heading", { name: "配信順序" }).waitFor();
    await expect.poll(() => card.getByTestId("ordering-summary").textContent()).toBe("2 列が停滞中、3 件が待機中");
    expect(await card.locator("th").allTextContents()).toEqual(["キー", "待機中", "先頭のメッセージ", "試行回数", "直近の応答", "次回の試行"]);
    expect((await shownLines(page)).map((l) => l.key)).toEqual(["cus_1", "キーなし"]);
    expect(await page.getByTestId("ordering-fact").textContent()).toBe("順序どおり（キー：data.customer_id）");

    await page.goto(`/endpoints/${ids.plain}`);
    await page.getByTestId("ordering-card").getByTestId("ordering-none").getByText("待機中の列はありません").waitFor();
  });

  it("shows the portal the same lines, each head linked to its delivery's page", async () => {
    const { page } = await suite.newPage({ scoped: true });
    await page.goto(await suite.portalLink(api, "acme"));
    await page.getByRole("link", { name: `${receiver.url}/orders` }).click();
    const card = page.getByTestId("ordering-card");
    await expect.poll(() => card.getByTestId("ordering-summary").textContent()).toBe("2 lines held up, 3 messages waiting");
    expect(await shownLines(page)).toEqual([
      { key: "cus_1", waiting: "2", head: heads.keyed, attempts: "1", answer: "HTTP 500" },
      { key: "(no key)", waiting: "1", head: heads.unkeyed, attempts: "1", answer: "HTTP 500" },
    ]);
    expect(await page.getByTestId("ordering-fact").textContent()).toBe("In order, by data.customer_id");
    await card.getByTestId("line-head").nth(1).click();
    await page.waitForURL(`${suite.app.url}/portal/deliveries/${heads.unkeyed}`);
  });

  // Last: the resend's attempt changes the head's figures the tests above read.
  it("says a resend to an ordered endpoint goes at once, outside its order", async () => {
    const page = await dashboard();
    await page.goto(`/messages/${heads.keyed}`);
    await page.getByRole("heading", { name: "Message order.placed", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Resend", exact: true }).click();
    await page.getByText(/Queued a resend to 1 endpoint/).waitFor();
    await page.getByText("One endpoint delivers in order: the resend is sent at once, outside the endpoint's order.").waitFor();
  });
});
