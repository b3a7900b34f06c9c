import type { Browser, Page } from "playwright-core";
import { createPortalLink } from "../lib/portal";
import { PORTAL_CAPABILITIES } from "../lib/portal/capabilities";
import { systemCtx } from "../lib/open-ctx";

/**
 * The portal's event catalog (marked for the billing endpoint, invoice.paid open) and its
 * "Receiving webhooks" guide, general and for the endpoint the sample traffic went to (its real
 * headers and its secret filled in), from a link with every capability.
 */
export async function shootReceiving(
  browser: Browser,
  appUrl: string,
  locale: "en" | "ja",
  shoot: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  const ctx = systemCtx();
  const link = await createPortalLink({
    ctx,
    ref: "acme",
    input: { locale, capabilities: [...PORTAL_CAPABILITIES], theme: { name: "Acme Cloud", accent: "#0f766e", mode: "light" } },
  });
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: locale === "ja" ? "ja-JP" : "en-US",
    timezoneId: locale === "ja" ? "Asia/Tokyo" : "Europe/London",
    colorScheme: "light",
  });
  const page = await context.newPage();
  await page.goto(`${appUrl}/portal${new URL(link.url).hash}`);
  await page.getByRole("link", { name: "https://hooks.acme.example.com/billing" }).click();
  await page.locator('main a[href^="/portal/event-types?endpoint_id="]').click();
  await page.getByTestId("subscription-note").waitFor();
  const paid = page.locator('[data-event-type="invoice.paid"]');
  await paid.locator("summary").first().click();
  await paid.getByTestId("schema-fields").waitFor();
  await paid.getByTestId("schema-versions").locator("[data-version]").first().waitFor();
  await shoot(page, `${locale}-portal-event-types`);

  await page.locator('header nav a[href="/portal/receiving"]').click();
  await page.getByTestId("sample-code").waitFor();
  const sampleTraffic = page.locator('main a[href$="/receiving"]', { hasText: "127.0.0.1" });
  await sampleTraffic.waitFor();
  await shoot(page, `${locale}-portal-receiving`);

  await sampleTraffic.click();
  await page.getByTestId("header-value-webhook-id").waitFor();
  await page.locator('[data-testid="secret-note"][data-secret="filled"]').waitFor();
  await shoot(page, `${locale}-portal-endpoint-receiving`);
  await context.close();
}
