import type { Browser, Page } from "playwright-core";
import { createPortalLink } from "../lib/portal";
import { PORTAL_CAPABILITIES } from "../lib/portal/capabilities";
import { systemCtx } from "../lib/open-ctx";

/**
 * The customer portal as a consumer sees it from a themed link: endpoints, one failing endpoint's
 * detail, the add dialog, alert emails, and a spent link; in each language, and dark from a dark link.
 */
export async function shootPortal(
  browser: Browser,
  appUrl: string,
  locale: "en" | "ja",
  shoot: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  const ctx = systemCtx();
  for (const mode of ["light", "dark"] as const) {
    const link = await createPortalLink({
      ctx,
      ref: "acme",
      input: { locale, capabilities: [...PORTAL_CAPABILITIES], theme: { name: "Acme Cloud", accent: "#0f766e", mode } },
    });
    const url = `${appUrl}/portal${new URL(link.url).hash}`;
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: locale === "ja" ? "ja-JP" : "en-US",
      timezoneId: locale === "ja" ? "Asia/Tokyo" : "Europe/London",
      colorScheme: mode,
    });
    const page = await context.newPage();
    const suffix = mode === "dark" ? "-dark" : "";
    await page.goto(url);
    await page.getByTestId("stats-sparkline").first().waitFor();
    await shoot(page, `${locale}-portal-endpoints${suffix}`);
    await page.getByRole("link", { name: "https://crm.acme.example.com/webhooks" }).click();
    await page.getByTestId("stats-volume").waitFor();
    await shoot(page, `${locale}-portal-endpoint${suffix}`);
    if (mode === "light") {
      await page.locator("header nav a").first().click();
      await page.getByTestId("stats-sparkline").first().waitFor();
      await page.locator("main").getByRole("button").first().click();
      await page.getByRole("dialog").locator("details summary").first().click();
      await shoot(page, `${locale}-portal-add-endpoint`);
      await page.keyboard.press("Escape");
      await page.locator("header nav a").nth(3).click();
      await page.locator("#alert-emails").waitFor();
      await shoot(page, `${locale}-portal-alert-emails`);
      const spent = await browser.newContext({ viewport: { width: 1280, height: 600 }, locale: locale === "ja" ? "ja-JP" : "en-US" });
      const again = await spent.newPage();
      await again.goto(url);
      await again.getByTestId("portal-ended").waitFor();
      await shoot(again, `${locale}-portal-link-used`);
      await spent.close();
    }
    await context.close();
  }
}
