import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { sweep } from "../../lib/maintenance/sweep";
import { systemCtx } from "../../lib/open-ctx";
import { eraseConsumer } from "../../lib/retention/erase-consumer";
import { createOperator } from "../../lib/operators";
import { apiClient } from "../helpers/api";
import { clickUntilShown } from "../helpers/browser";
import { browserSuite } from "../helpers/browser-suite";
import { consumerWithEndpoint, sendMessage, sendMessages } from "../helpers/fixtures";
import { withEnv } from "../helpers/env";

/**
 * The data lifecycle in a real Chromium against the production build: the Data & retention page
 * (admins only) and the message page's "Delete payload" with its confirmation. No worker runs, so a
 * background erasure stays in progress for the page to show.
 */
const PASSWORD = "correct horse battery";
const suite = browserSuite();
const SECRET = "4111-1111-1111-1111";
let messageId = "";
let erasureConsumer = "";

beforeAll(async () => {
  const ctx = systemCtx();
  await createOperator({ ctx, input: { email: "admin@example.com", password: PASSWORD, role: "admin" } });
  await createOperator({ ctx, input: { email: "viewer@example.com", password: PASSWORD, role: "viewer" } });
  const api = await apiClient();
  await consumerWithEndpoint(api, "http://127.0.0.1:9/hook", { consumer: { uid: "acme", name: "Acme" } });
  messageId = (await sendMessage(api, "acme", { payload: { card: SECRET } })).id;
  // A consumer being erased in the background (the job waits: no worker here), and a sweep's record.
  await consumerWithEndpoint(api, "http://127.0.0.1:9/leaving", { consumer: { uid: "leaving", name: "Leaving Ltd" } });
  await sendMessages(api, "leaving", 4);
  await withEnv({ ERASURE_INLINE_MESSAGES: "2" }, async () => {
    const res = await api.del("/api/v1/consumers/leaving");
    expect(res.status, res.text).toBe(202);
    erasureConsumer = res.body.consumer_id;
    // One slice of the job, one message long: it counts the consumer's messages and erases one.
    expect(await eraseConsumer(systemCtx(), { erasureId: res.body.id, deadline: Date.now() - 1, batchScale: 0.001 })).toEqual({ state: "running", wakeAt: null });
  });
  await sweep({ ctx: systemCtx() });
  await suite.open();
}, 600_000);

/** Runs `steps` on a page signed in as `email`; a failure leaves it open, for the suite to print what it did. */
async function asOperator(email: string, steps: (page: Page) => Promise<void>, locale = "en-US"): Promise<void> {
  const { context, page } = await suite.signedIn(email, PASSWORD, { locale });
  await steps(page);
  await context.close();
}

describe("Data & retention", () => {
  it("shows an admin the settings in force, the database's size and largest tables, the last sweeps, and an erasure's progress", async () => {
    await asOperator("admin@example.com", async (page) => {
      await page.getByRole("navigation").getByRole("link", { name: "Data & retention" }).click();
      await page.waitForURL((url) => url.pathname === "/data");
      const settings = page.getByTestId("retention-settings");
      await settings.waitFor();
      expect(await settings.innerText()).toContain("30 days");
      expect(await settings.innerText()).toContain("RETENTION_PERIOD");
      expect(await settings.innerText()).toContain("400 days");
      expect(await page.getByTestId("database-bytes").innerText()).toMatch(/\d.*(MB|kB|GB)/);
      expect(await page.getByTestId("database-size").getByRole("row").count()).toBeGreaterThan(5);
      await page.getByTestId("sweep").first().waitFor();
      const bar = page.getByRole("progressbar", { name: `Erasure of ${erasureConsumer}` });
      await bar.waitFor();
      expect(await bar.getAttribute("aria-valuemax")).toBe("4");
      expect(await bar.getAttribute("aria-valuenow")).toBe("1");
      expect(await page.getByTestId("erasure").innerText()).toContain("1 of 4 messages erased");
    });
  });

  it("speaks Japanese, and is for admins only", async () => {
    await asOperator(
      "admin@example.com",
      async (page) => {
        await page.goto("/data");
        await page.getByTestId("retention-settings").waitFor();
        expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("データと保持期間");
        expect(await page.getByTestId("retention-settings").innerText()).toContain("30 日");
      },
      "ja-JP",
    );
    await asOperator("viewer@example.com", async (page) => {
      await page.goto("/data");
      await page.getByText("For admins only").waitFor();
      expect(await page.getByTestId("retention-settings").count()).toBe(0);
    });
  });
});

describe("a message's Delete payload", () => {
  it("is offered to an admin, confirmed in a dialog, and then the page shows the payload as deleted", async () => {
    await asOperator("admin@example.com", async (page) => {
      await page.goto(`/messages/${messageId}`);
      await page.getByTestId("payload").getByText(SECRET).waitFor();
      const dialog = page.getByRole("alertdialog");
      await clickUntilShown(page.getByRole("button", { name: "Delete payload" }), dialog);
      expect(await dialog.innerText()).toContain("can never be sent again");
      // Cancel first: nothing happens.
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
      expect((await getSql()<{ payload: string }[]>`select payload from messages where id = ${messageId}`)[0]!.payload).toContain(SECRET);
      await clickUntilShown(page.getByRole("button", { name: "Delete payload" }), dialog);
      await dialog.getByRole("button", { name: "Delete payload" }).click();
      await page.getByTestId("payload-expunged").waitFor();
      expect(await page.getByTestId("payload-expunged").innerText()).toContain("Payload deleted");
      expect(await page.getByTestId("payload").innerText()).not.toContain(SECRET);
      expect((await getSql()<{ payload: string }[]>`select payload from messages where id = ${messageId}`)[0]!.payload).toBe("");
      // No button any more, and resends are disabled with the reason.
      expect(await page.getByRole("button", { name: "Delete payload" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Resend to all endpoints" }).isDisabled()).toBe(true);
      // The deleted payload's delivery, pending (nothing listens at its URL), is canceled.
      await expect.poll(async () => page.getByTestId("delivery").innerText()).toMatch(/canceled/i);
    });
  });

  it("is not offered to a viewer", async () => {
    const api = await apiClient();
    const other = (await sendMessage(api, "acme", { payload: { n: 2 } })).id;
    await asOperator("viewer@example.com", async (page) => {
      await page.goto(`/messages/${other}`);
      await page.getByTestId("payload").getByText('"n": 2').waitFor();
      expect(await page.getByRole("button", { name: "Delete payload" }).count()).toBe(0);
    });
  });
});
