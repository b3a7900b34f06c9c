import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createOperator } from "../../lib/operators";
import { systemCtx } from "../../lib/open-ctx";
import { apiClient, type Api } from "../helpers/api";
import { clickUntilShown } from "../helpers/browser";
import { browserSuite } from "../helpers/browser-suite";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";

/**
 * Event schemas on screen (issue 36), in Chromium against the production build: a schema and
 * `warn` set through the dashboard's editor (a bad one refused with its pointer beside the JSON);
 * a message that breaks it marked on its page and found by the log's filter; the portal's
 * catalogue with the version and its downloads; the same in Japanese.
 */
const PASSWORD = "correct horse battery";
const HOSTILE = `<img src=x onerror="window.__x=1">`;
const SCHEMA = { type: "object", required: ["invoice", "amount"], properties: { invoice: { type: "string" }, amount: { type: "integer", minimum: 0 } } };
const suite = browserSuite();
let api: Api;
let broken = "";

beforeAll(async () => {
  await createOperator({ ctx: systemCtx(), input: { email: "admin@example.com", password: PASSWORD, role: "admin" } });
  api = await apiClient();
  await createConsumer(api, { uid: "acme", name: "Acme" });
  const type = await api.post("/api/v1/event-types", { name: "invoice.paid", description: "An invoice was paid." });
  expect(type.status, type.text).toBe(201);
  await createEndpoint(api, "acme", "http://127.0.0.1:9/billing", { description: "Billing" });
  await suite.open();
}, 600_000);

async function dashboard(locale = "en-US"): Promise<Page> {
  const { page } = await suite.signedIn("admin@example.com", PASSWORD, { locale, scoped: true });
  return page;
}

/** Opens the event type's row in the catalog, once the page can react to it (the versions are read on opening). */
async function openRow(page: Page, name: string) {
  const row = page.locator(`[data-event-type="${name}"]`);
  await clickUntilShown(row.locator("summary").first(), row.getByTestId("schema-fields").or(row.getByText("No schema given.")).or(row.getByText("スキーマはありません。")));
  return row;
}

const stored = async () => (await api.get("/api/v1/event-types/invoice.paid")).body as { schema: unknown; schema_version: number; enforcement: string; example: unknown };

describe("event schemas in Chromium", () => {
  it("sets a schema, an example and warn through the dashboard's editor, after refusing a bad schema with its pointer beside the JSON", async () => {
    const page = await dashboard();
    await page.goto("/event-types");
    const row = await openRow(page, "invoice.paid");
    expect(await row.getByTestId("enforcement").textContent()).toBe("Off");

    const dialog = page.getByRole("dialog", { name: "Edit invoice.paid" });
    await clickUntilShown(row.getByRole("button", { name: "Edit" }), dialog);
    expect(await dialog.getByLabel("Description").inputValue()).toBe("An invoice was paid.");
    // A backreference RE2 cannot run: one fault, at the pattern, its pointer read from the schema.
    await dialog.getByLabel("JSON Schema").fill(JSON.stringify({ type: "object", properties: { a: { type: "string", pattern: "(a)\\1" } } }));
    await dialog.getByRole("button", { name: "Save" }).click();
    const faults = dialog.getByTestId("schema-faults");
    await faults.waitFor();
    expect(await faults.textContent()).toContain("The server found 1 fault");
    expect(await faults.locator("li").getAttribute("data-pointer")).toBe("/properties/a/pattern");
    expect(await faults.locator("li").textContent()).toMatch(/^\/properties\/a\/pattern: .*RE2/);
    expect(await dialog.getByLabel("JSON Schema").getAttribute("aria-invalid")).toBe("true");
    expect((await stored()).schema_version).toBe(0);

    // An example the schema refuses: its fault is beside the example, not the schema.
    await dialog.getByLabel("JSON Schema").fill(JSON.stringify(SCHEMA, null, 2));
    await dialog.getByLabel("Example payload").fill('{"invoice": "in_1", "amount": -1}');
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => dialog.getByTestId("example-faults").textContent()).toContain("/amount: must be >= 0");
    expect(await dialog.getByTestId("schema-faults").count()).toBe(0);

    await dialog.getByLabel("Example payload").fill('{"invoice": "in_1", "amount": 4200}');
    await dialog.getByLabel("Enforcement").selectOption("warn");
    await dialog.getByText("A message that breaks the schema is still sent, and marked on its page and in the message log.").waitFor();
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText("invoice.paid saved (schema version 1)").first().waitFor();
    expect(await stored()).toMatchObject({ schema: SCHEMA, schema_version: 1, enforcement: "warn", example: { invoice: "in_1", amount: 4200 } });

    await expect.poll(() => row.getByTestId("enforcement").textContent()).toBe("Warn — accept and mark");
    await expect.poll(() => row.getByTestId("schema-version").textContent()).toBe("Schema version 1");
    expect(await row.getByTestId("example-valid").textContent()).toBe("Valid");
    const versions = row.getByTestId("schema-versions");
    await versions.locator('[data-version="1"]').waitFor();
    await versions.locator('[data-version="1"] summary').click();
    expect(JSON.parse((await versions.locator('[data-version="1"] pre').textContent())!)).toEqual(SCHEMA);

    // Removed and put back: the removal is a version of its own, listed as such.
    expect((await api.patch("/api/v1/event-types/invoice.paid", { schema: null, example: null })).status).toBe(200);
    expect((await api.patch("/api/v1/event-types/invoice.paid", { schema: SCHEMA, example: { invoice: "in_1", amount: 4200 } })).status).toBe(200);
    await page.reload();
    const again = await openRow(page, "invoice.paid");
    await again.locator('[data-version="3"]').waitFor();
    expect(await again.locator('[data-version="2"]').textContent()).toContain("Schema removed");
    expect(await again.getByTestId("schema-version").textContent()).toBe("Schema version 3");
  });

  it("marks a message that broke the schema on its page, as text, and finds it with the log's filter", async () => {
    expect((await stored()).enforcement).toBe("warn");
    const fine = await sendMessage(api, "acme", { payload: { invoice: "in_2", amount: 10 } });
    broken = (await sendMessage(api, "acme", { payload: { invoice: HOSTILE, amount: "lots" } })).id;
    const page = await dashboard();
    await page.goto(`/messages/${broken}`);
    const warning = page.getByTestId("schema-violations");
    await warning.waitFor();
    expect(await warning.textContent()).toContain("Did not match its event type's schema (version 3)");
    expect(await warning.locator('[data-pointer="/amount"]').textContent()).toBe("/amount: must be integer");
    expect(await page.locator("img").count()).toBe(0);

    await page.goto(`/messages/${fine.id}`);
    await page.getByTestId("payload").waitFor();
    expect(await page.getByTestId("schema-violations").count()).toBe(0);

    await page.goto("/messages");
    await page.getByRole("link", { name: fine.id }).waitFor();
    await page.getByLabel("Schema", { exact: true }).selectOption("true");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/schema_invalid=true/);
    await expect.poll(() => page.getByRole("link", { name: fine.id }).count()).toBe(0);
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: broken }) });
    await row.getByTestId("schema-broken").waitFor();
    expect(await row.getByTestId("schema-broken").textContent()).toBe("Broke its schema");
  });

  it("shows the portal's catalogue with the schema's version, its fields and JSON, and downloads that answer", async () => {
    const address = await suite.portalLink(api, "acme", {});
    const { page } = await suite.newPage({ scoped: true });
    await page.goto(address);
    await page.getByRole("heading", { name: "Endpoints", level: 1 }).waitFor();
    await page.goto("/portal/event-types");
    const row = await openRow(page, "invoice.paid");
    expect(await row.getByTestId("schema-version").textContent()).toBe("Schema version 3");
    expect(await row.locator('[data-field="$.amount"]').textContent()).toContain("integer");
    expect(await row.getByTestId("example-valid").textContent()).toBe("Valid");
    // Nothing of the dashboard's: no enforcement, no editor.
    expect(await row.getByTestId("event-type-settings").count()).toBe(0);
    const downloads = row.getByTestId("schema-downloads").first();
    const [download] = await Promise.all([page.waitForEvent("download"), downloads.getByRole("button", { name: "TypeScript types" }).click()]);
    expect(download.suggestedFilename()).toBe("invoice.paid.v3.d.ts");
    expect(await readFile((await download.path())!, "utf8")).toContain("export interface InvoicePaid");
    // The schema itself, not the version's envelope: a file a validator reads as it is.
    const [schemaFile] = await Promise.all([page.waitForEvent("download"), downloads.getByRole("button", { name: "Schema (JSON)" }).click()]);
    expect(schemaFile.suggestedFilename()).toBe("invoice.paid.v3.schema.json");
    expect(JSON.parse(await readFile((await schemaFile.path())!, "utf8"))).toEqual(SCHEMA);
    await row.locator('[data-version="1"]').waitFor();

    const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem("webhook-admin.portal.session")!).session_token as string);
    const types = await fetch(`${suite.app.url}/api/v1/event-types/invoice.paid/schemas/3/typescript`, { headers: { authorization: `Bearer ${token}` } });
    expect(types.status).toBe(200);
    expect(await types.text()).toContain("export interface InvoicePaid");
    const json = await fetch(`${suite.app.url}/api/v1/event-types/invoice.paid/schemas/3`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await json.json()) as { schema: unknown }).schema).toEqual(SCHEMA);
  });

  it("speaks Japanese: the catalog's version and enforcement, the editor's levels, the warning on the message", async () => {
    const page = await dashboard("ja-JP");
    await page.goto("/event-types");
    const row = await openRow(page, "invoice.paid");
    await expect.poll(() => row.getByTestId("schema-version").textContent()).toBe("スキーマのバージョン 3");
    expect(await row.getByTestId("enforcement").textContent()).toBe("警告 — 受け付けて印を付ける");
    expect(await row.getByRole("button", { name: "TypeScript の型" }).count()).toBeGreaterThan(0);
    const dialog = page.getByRole("dialog", { name: "invoice.paid を編集" });
    await clickUntilShown(row.getByRole("button", { name: "編集" }), dialog);
    expect(await dialog.getByLabel("スキーマの適用").locator("option").allTextContents()).toEqual(["オフ", "警告 — 受け付けて印を付ける", "拒否 — 422 で受け付けない"]);
    await page.keyboard.press("Escape");

    await page.goto(`/messages/${broken}`);
    await expect.poll(() => page.getByTestId("schema-violations").textContent()).toContain("イベントタイプのスキーマ（バージョン 3）に合っていません");
  });
});
