/** Event schemas' part of `npm run screenshots`: invoice.paid's schema in a second version, enforced as warn, and its editor. */
import type { Page } from "playwright-core";
import { updateEventType } from "../lib/event-types";
import { systemCtx } from "../lib/open-ctx";

/**
 * A second version of the sample's invoice.paid schema (a currency from a list, the amount
 * described) enforced as warn, so the catalog lists two versions. Set after the sample traffic,
 * whose messages went out unchecked as before.
 */
export async function seedSchemas(): Promise<void> {
  await updateEventType({
    ctx: systemCtx(),
    name: "invoice.paid",
    input: {
      schema: {
        type: "object",
        required: ["invoice", "amount"],
        properties: {
          invoice: { type: "string", description: "The invoice's id." },
          amount: { type: "integer", minimum: 0, description: "In the currency's smallest unit." },
          currency: { type: "string", enum: ["jpy", "usd", "eur"] },
        },
      },
      enforcement: "warn",
    },
  });
}

/** The dashboard's catalog with invoice.paid open, then its editor. Selectors hold in every language. */
export async function shootSchemas(page: Page, locale: string, shoot: (page: Page, name: string) => Promise<void>): Promise<void> {
  await page.goto("/event-types");
  const paid = page.locator('[data-event-type="invoice.paid"]');
  await paid.locator("summary").first().click();
  await paid.getByTestId("schema-versions").locator("[data-version]").first().waitFor();
  await paid.getByTestId("event-type-settings").getByRole("button").click();
  const dialog = page.getByRole("dialog");
  await dialog.locator("textarea").first().waitFor();
  // The dialog focuses (and selects) its first field; the shot is of the JSON, not of a selection.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await shoot(page, `${locale}-event-type-schema`);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
}
