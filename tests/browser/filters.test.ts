import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createOperator } from "../../lib/operators";
import { apiClient, type Api } from "../helpers/api";
import { clickUntilShown } from "../helpers/browser";
import { browserSuite } from "../helpers/browser-suite";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { systemCtx } from "../../lib/open-ctx";

/**
 * Payload filters on the endpoint's page (issue 36), in Chromium against the production build: set
 * one through the form, try it on the endpoint's last messages, save it and read it in words; a bad
 * one in the JSON view is refused with where it is wrong; a portal link that may not manage
 * endpoints only tries; a message a filter refused says so on its page.
 */
const PASSWORD = "correct horse battery";
const HOSTILE = `<img src=x onerror="window.__x=1"><script>window.__x=1</script>`;
const suite = browserSuite();
let api: Api;
const ids = { billing: "", ledger: "", hostile: "", jpy: "", quiet: "" };
/** The seeded messages, newest last, and whether `data.amount ≥ 1000 and data.currency is one of JPY, USD` takes each. */
const sent: { id: string; passes: boolean }[] = [];

beforeAll(async () => {
  await createOperator({ ctx: systemCtx(), input: { email: "admin@example.com", password: PASSWORD, role: "admin" } });
  api = await apiClient();
  await createConsumer(api, { uid: "acme", name: "Acme" });
  const type = await api.post("/api/v1/event-types", { name: "invoice.paid", description: "An invoice was paid.", example: { data: { amount: 1200, currency: "JPY" } } });
  expect(type.status, type.text).toBe(201);
  ids.billing = (await createEndpoint(api, "acme", "http://127.0.0.1:9/billing", { description: "Billing" })).id;
  // Filtered from the start: every message but the one in EUR is refused here as it is sent.
  ids.ledger = (await createEndpoint(api, "acme", "http://127.0.0.1:9/ledger", { description: "Ledger", filter: { "data.currency": "EUR" } })).id;
  for (const [amount, currency, passes] of [
    [1500, "JPY", true],
    [500, "JPY", false],
    [3000, "EUR", false],
    [2500, "USD", true],
    [999, "USD", false],
  ] as const) {
    sent.push({ id: (await sendMessage(api, "acme", { event_type: "invoice.paid", payload: { data: { amount, currency } } })).id, passes });
  }
  ids.jpy = sent[0]!.id;
  // Made after the messages, so none of them names it; its filter holds markup in a value and a path.
  ids.hostile = (await createEndpoint(api, "acme", "http://127.0.0.1:9/hostile", { filter: { "data.note": HOSTILE, [`data.${HOSTILE}`]: { $exists: true } } })).id;
  // No message was ever sent for its event type: nothing to test a filter on.
  ids.quiet = (await createEndpoint(api, "acme", "http://127.0.0.1:9/quiet", { event_types: ["invoice.voided"] })).id;
  await suite.open();
}, 600_000);

async function dashboard(locale = "en-US"): Promise<Page> {
  const { page } = await suite.signedIn("admin@example.com", PASSWORD, { locale, scoped: true });
  return page;
}

async function portal(link: Record<string, unknown> = {}): Promise<Page> {
  const address = await suite.portalLink(api, "acme", link);
  const { page } = await suite.newPage({ scoped: true });
  await page.goto(address);
  await page.getByRole("heading", { name: "Endpoints", level: 1 }).waitFor();
  return page;
}

const storedFilter = async (id: string) => (await api.get(`/api/v1/endpoints/${id}`)).body.filter as unknown;
const pwned = (page: Page) => page.evaluate(() => (window as { __x?: number }).__x);

/** Each tested message's id (from its hover text) and its badge. */
async function testedMessages(dialog: Locator): Promise<{ id: string; badge: string }[]> {
  const rows = dialog.getByTestId("filter-test-message");
  const out: { id: string; badge: string }[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    out.push({ id: (await row.locator("code").getAttribute("title"))!, badge: (await row.getByTestId("filter-test-badge").textContent())! });
  }
  return out;
}

describe("payload filters in Chromium", () => {
  it("sets a filter through the form in the dashboard, tests it on the last messages, saves it and shows it in words", async () => {
    const page = await dashboard();
    await page.goto(`/endpoints/${ids.billing}`);
    const card = page.getByTestId("filter-card");
    await card.getByTestId("filter-none").waitFor();
    expect(await card.getByTestId("filter-none").textContent()).toContain("Every message its event types let through is delivered — add a filter to pick by payload.");

    const dialog = page.getByRole("dialog", { name: "Edit the payload filter" });
    await clickUntilShown(card.getByRole("button", { name: "Add filter" }), dialog);
    await dialog.getByLabel("Field of condition 1").fill("data.amount");
    await dialog.getByLabel("Operator of condition 1").selectOption("gte");
    await dialog.getByLabel("Value of condition 1").fill("1000");
    await dialog.getByRole("button", { name: "Add condition" }).click();
    await dialog.getByLabel("Field of condition 2").fill("data.currency");
    await dialog.getByLabel("Operator of condition 2").selectOption("in");
    await dialog.getByLabel("Value of condition 2").fill("JPY, USD");

    await dialog.getByRole("button", { name: "Test against the last 20 messages" }).click();
    await expect.poll(() => dialog.getByTestId("filter-test-count").textContent()).toBe("2 of 5 would be delivered");
    // Newest first, each with the badge the filter earns it.
    expect(await testedMessages(dialog)).toEqual([...sent].reverse().map((m) => ({ id: m.id, badge: m.passes ? "Delivered" : "Filtered out" })));
    expect(await storedFilter(ids.billing)).toBeNull();

    // The JSON view says the same filter; back in the form, the rows are as they were.
    const expected = { "data.amount": { $gte: 1000 }, "data.currency": { $in: ["JPY", "USD"] } };
    await dialog.getByRole("tab", { name: "JSON" }).click();
    expect(JSON.parse(await dialog.getByLabel("Filter as JSON").inputValue())).toEqual(expected);
    await dialog.getByRole("tab", { name: "Form" }).click();
    expect(await dialog.getByLabel("Value of condition 2").inputValue()).toBe("JPY, USD");

    await dialog.getByRole("button", { name: "Save filter" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText("Filter saved: it applies from the next message on").first().waitFor();
    expect(await storedFilter(ids.billing)).toEqual(expected);
    await expect.poll(() => card.getByTestId("filter-words").textContent()).toBe("data.amount ≥ 1000 and data.currency is one of JPY, USD");
    expect(JSON.parse((await card.getByTestId("filter-json").textContent())!)).toEqual(expected);

    // Opened again, the saved filter fills the form.
    await card.getByRole("button", { name: "Edit filter" }).click();
    expect(await dialog.getByLabel("Operator of condition 1").inputValue()).toBe("gte");
    expect(await dialog.getByLabel("Value of condition 2").inputValue()).toBe("JPY, USD");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
  });

  it("refuses a bad filter in the JSON view with the fault beside its place, and saves nothing", async () => {
    const page = await dashboard();
    await page.goto(`/endpoints/${ids.ledger}`);
    const card = page.getByTestId("filter-card");
    await expect.poll(() => card.getByTestId("filter-words").textContent()).toBe("data.currency is EUR");
    const dialog = page.getByRole("dialog", { name: "Edit the payload filter" });
    await clickUntilShown(card.getByRole("button", { name: "Edit filter" }), dialog);
    await dialog.getByRole("tab", { name: "JSON" }).click();
    const json = dialog.getByLabel("Filter as JSON");

    await json.fill("{ not json");
    await dialog.getByRole("button", { name: "Save filter" }).click();
    await dialog.getByText("This is not valid JSON.").waitFor();

    // What the form cannot say stays in JSON, with the reason.
    await json.fill('{"$not": {"data.currency": "EUR"}}');
    await dialog.getByRole("tab", { name: "Form" }).click();
    await dialog.getByTestId("filter-misfit").getByText("This filter uses $not, which the form does not offer, so it is shown as JSON.").waitFor();
    expect(await dialog.getByRole("tab", { name: "JSON" }).getAttribute("aria-selected")).toBe("true");

    await json.fill('{"data.amount": {"$between": [1, 5]}, "$or": []}');
    await dialog.getByRole("button", { name: "Test against the last 20 messages" }).click();
    const tested = dialog.getByTestId("filter-test-faults");
    await tested.waitFor();
    expect(await tested.textContent()).toContain('At data.amount › $between: unknown operator "$between"');
    expect(await tested.textContent()).toContain("At $or: $or takes a non-empty array of filters");
    await dialog.getByRole("button", { name: "Save filter" }).click();
    const saved = dialog.getByTestId("filter-save-faults");
    await saved.waitFor();
    expect(await saved.textContent()).toContain("The filter breaks 2 rules:");
    expect(await saved.textContent()).toContain('At data.amount › $between: unknown operator "$between"');
    await page.getByText("The filter breaks a rule; each fault is shown beside where it is.").first().waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect(await storedFilter(ids.ledger)).toEqual({ "data.currency": "EUR" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await card.getByTestId("filter-words").textContent()).toBe("data.currency is EUR");
  });

  it("says so when the endpoint has no messages to test a filter on", async () => {
    const page = await dashboard();
    await page.goto(`/endpoints/${ids.quiet}`);
    const card = page.getByTestId("filter-card");
    const dialog = page.getByRole("dialog", { name: "Edit the payload filter" });
    await clickUntilShown(card.getByRole("button", { name: "Add filter" }), dialog);
    await dialog.getByRole("button", { name: "Test against the last 20 messages" }).click();
    const empty = dialog.getByTestId("filter-test-empty");
    await empty.waitFor();
    expect(await empty.textContent()).toContain("No messages to test on yet");
  });

  it("shows a portal link without manage_endpoints the filter read-only, hostile text as text, and lets it only try filters", async () => {
    const page = await portal({ capabilities: [] });
    await page.getByRole("link", { name: "http://127.0.0.1:9/hostile" }).click();
    const card = page.getByTestId("filter-card");
    await card.getByTestId("filter-words").waitFor();
    expect(await card.getByTestId("filter-words").textContent()).toBe(`data.note is ${HOSTILE} and data.${HOSTILE} exists`);
    expect(await card.locator("img, script").count()).toBe(0);
    expect(await card.getByRole("button", { name: "Remove filter" }).isDisabled()).toBe(true);
    expect(await card.getByRole("button", { name: "Edit filter" }).count()).toBe(0);
    await card.getByText("Your link lets you see endpoints but not change them.").first().waitFor();

    const dialog = page.getByRole("dialog", { name: "Try a payload filter" });
    await clickUntilShown(card.getByRole("button", { name: "Try a filter" }), dialog);
    expect(await dialog.getByRole("button", { name: "Save filter" }).count()).toBe(0);
    await dialog.getByRole("button", { name: "Test against the last 20 messages" }).click();
    await expect.poll(() => dialog.getByTestId("filter-test-count").textContent()).toBe("0 of 5 would be delivered");
    expect(await pwned(page)).toBeUndefined();

    // Hidden is a courtesy: the server refuses the change (403).
    const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem("webhook-admin.portal.session")!).session_token as string);
    const refused = await fetch(`${suite.app.url}/api/v1/endpoints/${ids.hostile}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ filter: null }),
    });
    expect(refused.status).toBe(403);
    expect(await storedFilter(ids.hostile)).not.toBeNull();
  });

  it("lists a message's filtered-out endpoints on its portal page, linked to the endpoint", async () => {
    const page = await portal();
    await page.goto(`/portal/deliveries/${ids.jpy}`);
    const section = page.getByTestId("filtered-out");
    await section.getByRole("heading", { name: "Filtered out" }).waitFor();
    const endpoints = section.getByTestId("filtered-endpoint");
    expect(await endpoints.count()).toBe(1);
    expect(await endpoints.first().textContent()).toContain("This endpoint's payload filter refused the message, so it has no delivery there.");
    // The delivery it did get is listed above, as ever.
    expect(await page.getByTestId("delivery").count()).toBe(1);
    await section.getByRole("link", { name: "Ledger" }).click();
    await page.waitForURL(`${suite.app.url}/portal/endpoints/${ids.ledger}`);
    await expect.poll(() => page.getByTestId("filter-words").textContent()).toBe("data.currency is EUR");
  });

  it("speaks Japanese: the card in words, the editor, and the test's count", async () => {
    const page = await dashboard("ja-JP");
    await page.goto(`/endpoints/${ids.ledger}`);
    const card = page.getByTestId("filter-card");
    await card.getByRole("heading", { name: "ペイロードフィルター" }).waitFor();
    await expect.poll(() => card.getByTestId("filter-words").textContent()).toBe("data.currency が EUR");
    const dialog = page.getByRole("dialog", { name: "ペイロードフィルターを編集" });
    await clickUntilShown(card.getByRole("button", { name: "フィルターを編集" }), dialog);
    await dialog.getByRole("button", { name: "直近 20 件のメッセージで試す" }).click();
    await expect.poll(() => dialog.getByTestId("filter-test-count").textContent()).toBe("5 件中 1 件が配信されます");
    expect(await dialog.getByTestId("filter-test-message").filter({ hasText: "除外" }).count()).toBe(4);
  });
});
