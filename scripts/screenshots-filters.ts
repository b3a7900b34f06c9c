/** The payload filter's part of `npm run screenshots`: a filter on the sample's billing endpoint, its card, and its editor after a test. */
import type { Page } from "playwright-core";
import { updateEndpoint } from "../lib/endpoints";
import { systemCtx } from "../lib/open-ctx";

/**
 * Filters the billing endpoint by amount and currency. Set after the sample traffic, so the
 * messages the other screens show went out as before; its editor's test runs on them.
 */
export async function seedFilter(endpointId: string): Promise<void> {
  await updateEndpoint({ ctx: systemCtx(), id: endpointId, input: { filter: { amount: { $gte: 5000 }, currency: { $in: ["jpy", "usd"] } } } });
}

/** On the endpoint's page: its filter card, then the editor with the last messages tested. Selectors hold in every language. */
export async function shootFilter(page: Page, locale: string, shoot: (page: Page, name: string) => Promise<void>): Promise<void> {
  const card = page.getByTestId("filter-card");
  await card.getByTestId("filter-words").waitFor();
  await card.scrollIntoViewIfNeeded();
  await shoot(page, `${locale}-endpoint-filter`);
  // The card's first button opens the editor; the first button of its test section runs the test.
  await card.getByRole("button").first().click();
  const dialog = page.getByRole("dialog");
  await dialog.locator("section button").first().click();
  const count = dialog.getByTestId("filter-test-count");
  await count.waitFor();
  await count.scrollIntoViewIfNeeded();
  await shoot(page, `${locale}-endpoint-filter-editor`);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
}
