import type { Page } from "playwright-core";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../lib/api-keys";
import { getDb } from "../../lib/db/client";
import { alerts } from "../../lib/db/schema";
import { newId } from "../../lib/ids";
import { createOperator } from "../../lib/operators";
import { clientFor, type Api } from "../helpers/api";
import { browserSuite } from "../helpers/browser-suite";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { systemCtx } from "../../lib/open-ctx";

/**
 * The README's demo story, screen by screen (issue #25): wherever the dashboard shows a consumer,
 * an endpoint, a person or a key, it says "Acme Corp", "Old CRM hook", "admin@example.com",
 * "backend" — never a bare con_/ep_/key_/op_ id — and the filters find a consumer or an endpoint by
 * typing its name, uid or URL, by keyboard alone, and keep its id in the address.
 */
const PASSWORD = "correct horse battery";
const suite = browserSuite();
const BARE_ID = /\b(?:con|ep|key|op)_[0-9a-z]{26}\b/g;
let api: Api;
const ids = { acme: "", globex: "", crm: "", billing: "", gone: "", recovery: "", message: "" };

beforeAll(async () => {
  const db = getDb();
  await createOperator({ ctx: systemCtx(), input: { email: "admin@example.com", password: PASSWORD, role: "admin" } });
  // A key named as the SaaS's backend: the name the dashboard shows for what it started.
  api = clientFor((await createApiKey({ ctx: systemCtx(), input: { name: "backend" } })).key);
  ids.acme = (await createConsumer(api, { uid: "acme", name: "Acme Corp", alert_emails: ["ops@acme.example"] })).id;
  ids.globex = (await createConsumer(api, { uid: "globex", name: "Globex" })).id;
  ids.billing = (await createEndpoint(api, "acme", "http://127.0.0.1:9/api/demo/receiver/ok", { description: "Billing sync" })).id;
  ids.crm = (await createEndpoint(api, "acme", "http://127.0.0.1:9/api/demo/receiver/retired", { description: "Old CRM hook", event_types: ["user.created"] })).id;
  await createEndpoint(api, "globex", "http://127.0.0.1:9/globex/hooks", { description: "Globex sync" });
  ids.gone = (await createEndpoint(api, "acme", "http://127.0.0.1:9/short-lived")).id;
  await api.del(`/api/v1/endpoints/${ids.gone}`);
  ids.message = (await sendMessage(api, "acme", { event_type: "user.created", payload: { user: "u_1" } })).id;
  await sendMessage(api, "globex", { event_type: "invoice.paid", payload: { invoice: "in_1" } });
  // The old CRM hook answered 410 until its schedule ran out: failed, then disabled and alerted.
  await db.execute(sql`delete from delivery_queue where delivery_id in (select id from deliveries where endpoint_id = ${ids.crm})`);
  await db.execute(sql`update deliveries set status = 'failed', attempts = 8, last_status_code = 410 where endpoint_id = ${ids.crm}`);
  const channel = await api.post("/api/v1/alert-channels", { kind: "email", name: "Ops mailbox", config: { to: ["ops@example.com"] } });
  expect(channel.status, channel.text).toBe(201);
  const alert = (kind: string, target: { channelId: string } | { recipient: string }) => ({
    id: newId("alert"),
    kind,
    endpointId: ids.crm,
    consumerId: ids.acme,
    channelId: "channelId" in target ? target.channelId : null,
    recipient: "recipient" in target ? target.recipient : null,
    status: "sent" as const,
    payload: {},
  });
  await db.insert(alerts).values([alert("endpoint.failing", { channelId: channel.body.id }), alert("endpoint.disabled", { recipient: "ops@acme.example" })]);
  const recovery = await api.post(`/api/v1/endpoints/${ids.crm}/recover`, { since: "2020-01-01T00:00:00Z" });
  expect(recovery.status, recovery.text).toBe(202);
  ids.recovery = recovery.body.id;
  await suite.open();
}, 600_000);

/** Signed in as the admin, the page closing with its test. */
const signedIn = (locale = "en-US") => suite.signedIn("admin@example.com", PASSWORD, { locale, scoped: true });

/** The ids the screen shows as text (not on hover): none but those said to be deleted. */
async function bareIds(page: Page): Promise<string[]> {
  const text = await page.locator("main").innerText();
  return [...text.matchAll(BARE_ID)].map((m) => m[0]).filter((id) => id !== ids.gone);
}

describe("the dashboard speaks in names", () => {
  it("names the endpoint of each alert, on the overview and the alert log, and filters the log by an endpoint found by keyboard", async () => {
    const { page } = await signedIn();
    const recent = page.getByRole("row", { name: "endpoint.failing" });
    await recent.getByRole("link", { name: "Old CRM hook" }).waitFor();
    expect(await recent.getByRole("link", { name: "Old CRM hook" }).getAttribute("href")).toBe(`/endpoints/${ids.crm}`);
    expect(await recent.textContent()).toContain("Ops mailbox");
    expect(await bareIds(page)).toEqual([]);

    await page.goto("/alerts");
    await page.getByRole("row", { name: "endpoint.disabled" }).getByText("ops@acme.example").waitFor();
    expect(await page.getByRole("row", { name: "endpoint.failing" }).getByRole("link", { name: "Old CRM hook" }).count()).toBe(1);
    expect(await bareIds(page)).toEqual([]);

    // Keyboard only: focus the picker, type to search, Enter picks the best match.
    const picker = page.getByRole("button", { name: /^Endpoint/ });
    await picker.focus();
    await page.keyboard.press("Enter");
    const search = page.getByRole("combobox", { name: "Search by URL, description or consumer" });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type("retired");
    await page.getByRole("listbox").getByRole("option", { name: /Old CRM hook/ }).waitFor();
    expect(await page.getByRole("listbox").getByRole("option").count()).toBe(1);
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.searchParams.get("endpoint_id") === ids.crm);
    await expect.poll(() => picker.textContent()).toContain("Old CRM hook");
    // Focus is back on the picker, which reads as its label and its choice.
    expect(await picker.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await picker.getAttribute("aria-expanded")).toBe("false");
  });

  it("names each message's consumer and endpoints, and filters by a consumer and an endpoint found by typing", async () => {
    const { page } = await signedIn();
    await page.goto("/messages");
    const row = page.getByRole("row", { name: ids.message });
    await row.getByRole("link", { name: "Acme Corp" }).waitFor();
    expect(await row.textContent()).toContain("acme");
    expect(await row.textContent()).toContain("Old CRM hook");
    expect(await row.textContent()).toContain("Billing sync");
    expect(await row.getByRole("link", { name: "Acme Corp" }).getAttribute("title")).toContain(ids.acme);
    expect(await bareIds(page)).toEqual([]);

    // Typing on the closed picker opens it with what was typed; the arrow keys move; Enter picks.
    const consumer = page.getByRole("button", { name: /^Consumer/ });
    await consumer.focus();
    await page.keyboard.press("g");
    const search = page.getByRole("combobox", { name: "Search by name or uid" });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement && (el as HTMLInputElement).value)).toBe("g");
    await page.keyboard.type("lo");
    await page.getByRole("listbox").getByRole("option", { name: /Globex/ }).waitFor();
    await page.keyboard.press("Enter");
    await expect.poll(() => consumer.textContent()).toContain("Globex");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL((url) => url.searchParams.get("consumer") === ids.globex);
    await row.waitFor({ state: "detached" });
    await page.getByRole("row").getByRole("link", { name: "Globex" }).first().waitFor();

    // The endpoint picker searches every consumer's endpoints, and says whose each is.
    await page.goto("/messages");
    const endpoint = page.getByRole("button", { name: /^Endpoint/ });
    await endpoint.click();
    await page.getByRole("combobox", { name: "Search by URL, description or consumer" }).fill("sync");
    await expect.poll(async () => (await page.getByRole("listbox").getByRole("option").allTextContents()).sort()).toEqual([
      expect.stringMatching(/^Billing sync.*Acme Corp$/),
      expect.stringMatching(/^Globex sync.*Globex$/),
    ]);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await expect.poll(() => endpoint.textContent()).toContain("Billing sync");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL((url) => url.searchParams.get("endpoint_id") === ids.billing);
    // A view opened from the address shows the chosen endpoint by name.
    await page.reload();
    await expect.poll(() => page.getByRole("button", { name: /^Endpoint/ }).textContent()).toContain("Billing sync");

    await page.goto(`/messages/${ids.message}`);
    await page.getByRole("link", { name: "Acme Corp" }).waitFor();
    await page.getByLabel("Delivery to Old CRM hook").waitFor();
    expect(await page.getByTestId("delivery").filter({ hasText: "Old CRM hook" }).getByRole("link", { name: "Old CRM hook" }).getAttribute("href")).toBe(`/endpoints/${ids.crm}`);
    expect(await bareIds(page)).toEqual([]);
  });

  it("names a recovery's endpoint, consumer and starter, and its report's endpoint; a new one is scoped with the keyboard", async () => {
    const { page } = await signedIn();
    await page.goto("/recoveries");
    const run = page.getByRole("row", { name: ids.recovery });
    await run.getByRole("link", { name: "Old CRM hook" }).waitFor();
    expect(await bareIds(page)).toEqual([]);

    await run.getByRole("link", { name: ids.recovery }).click();
    await page.getByText("For Old CRM hook").waitFor();
    await page.getByTestId("recovery-consumer").getByRole("link", { name: "Acme Corp" }).waitFor();
    expect(await page.getByTestId("recovery-started-by").textContent()).toBe("backendAPI key");
    await page.getByRole("row", { name: new RegExp(ids.message) }).getByRole("link", { name: "Old CRM hook" }).waitFor();
    expect(await bareIds(page)).toEqual([]);

    // The list filtered by a consumer (as the consumer's page links it), shown by name.
    await page.goto(`/recoveries?consumer=acme`);
    await expect.poll(() => page.getByRole("button", { name: /^Consumer/ }).textContent()).toContain("Acme Corp");
    await run.waitFor();
    await page.goto(`/recoveries?consumer=${ids.globex}`);
    await page.getByText("No recovery matches these filters").waitFor();

    await page.goto("/recoveries/new");
    await page.getByLabel("Recover for").selectOption("endpoint");
    const target = page.getByRole("button", { name: /^Endpoint/ });
    await target.focus();
    await page.keyboard.press("ArrowDown");
    const search = page.getByRole("combobox", { name: "Search by URL, description or consumer" });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type("old crm");
    await page.getByRole("listbox").getByRole("option", { name: /Old CRM hook/ }).waitFor();
    await page.keyboard.press("Enter");
    await expect.poll(() => target.textContent()).toContain("Old CRM hook");
    await page.getByRole("button", { name: "Preview" }).click();
    // Its one failed delivery is already in the run above.
    await expect.poll(() => page.getByTestId("dry-run-count").textContent()).toMatch(/^0 deliveries would be resent.*1 more is already in a running recovery/);
  });

  it("names the audit log's actors and targets, and a deleted one as deleted with its id", async () => {
    const { page } = await signedIn();
    await page.goto("/audit");
    const created = page.getByRole("row", { name: "consumer.created" }).filter({ hasText: "Acme Corp" });
    await created.waitFor();
    expect(await created.getByRole("link", { name: "backend" }).getAttribute("href")).toBe("/api-keys");
    expect(await created.getByRole("link", { name: "Acme Corp" }).getAttribute("href")).toBe(`/consumers/${ids.acme}`);
    const started = page.getByRole("row", { name: "recovery.started" });
    expect(await started.getByRole("link", { name: "Old CRM hook" }).getAttribute("href")).toBe(`/recoveries/${ids.recovery}`);
    const deleted = page.getByRole("row", { name: "endpoint.deleted" });
    expect(await deleted.textContent()).toContain(`deleted${ids.gone}`);
    expect(await page.getByRole("row", { name: "endpoint.created" }).filter({ hasText: "Old CRM hook" }).count()).toBe(1);
    expect(await bareIds(page)).toEqual([]);

    await page.goto(`/endpoints/${ids.crm}`);
    await page.getByRole("link", { name: "Acme Corp" }).waitFor();
  });

  it("speaks Japanese in the pickers", async () => {
    const { page } = await signedIn("ja-JP");
    await page.goto("/messages");
    const consumer = page.getByRole("button", { name: /^コンシューマー/ });
    await expect.poll(() => consumer.textContent()).toBe("すべてのコンシューマー");
    await consumer.click();
    await page.getByRole("combobox", { name: "名前または uid で検索" }).fill("acme");
    await page.getByRole("listbox").getByRole("option", { name: /Acme Corp/ }).click();
    await expect.poll(() => consumer.textContent()).toContain("Acme Corp");
  });
});
