/** The customer portal's Deliveries and Recover screens in `npm run screenshots`, over the sample traffic of screenshots-logs.ts. */
import type { Browser, Page } from "playwright-core";
import { createPortalLink } from "../lib/portal";
import { systemCtx } from "../lib/open-ctx";

type Shoot = (page: Page, name: string) => Promise<void>;

async function openPortal(browser: Browser, appUrl: string, consumer: string, locale: "en" | "ja", mode: "light" | "dark"): Promise<Page> {
  const { url } = await createPortalLink({ ctx: systemCtx(), ref: consumer, input: { locale, theme: { name: "Acme Cloud", mode } } });
  const context = await browser.newContext({
    baseURL: appUrl,
    viewport: { width: 1280, height: 800 },
    locale: locale === "ja" ? "ja-JP" : "en-US",
    timezoneId: locale === "ja" ? "Asia/Tokyo" : "Europe/London",
    colorScheme: mode,
  });
  const page = await context.newPage();
  // The link names this process's APP_URL; the app under the camera may sit elsewhere.
  await page.goto(`/portal${new URL(url).hash}`);
  await page.getByTestId("portal-product").waitFor();
  return page;
}

export async function shootPortalLogs(browser: Browser, appUrl: string, shoot: Shoot): Promise<void> {
  for (const locale of ["en", "ja"] as const) {
    const page = await openPortal(browser, appUrl, "acme", locale, "light");
    await page.goto("/portal/deliveries");
    await page.getByRole("row").nth(5).waitFor();
    await shoot(page, `${locale}-portal-deliveries`);
    await page.goto("/portal/recover");
    await page.getByTestId("recovery-progress").first().waitFor();
    await page.locator("main form button[type=submit]").click();
    await page.getByTestId("dry-run-count").waitFor();
    await shoot(page, `${locale}-portal-recover`);
    await page.locator("main table a").first().click();
    await page.getByTestId("count-succeeded").waitFor();
    await page.getByRole("row").nth(1).waitFor();
    await shoot(page, `${locale}-portal-recovery`);
    // A message the run recovered: its failed attempt, then the recovery's.
    await page.locator("main table a").first().click();
    await page.getByTestId("attempt").nth(1).waitFor();
    await page.locator("details summary").first().click();
    await shoot(page, `${locale}-portal-delivery`);
    await page.context().close();
  }
  const dark = await openPortal(browser, appUrl, "acme", "en", "dark");
  await dark.goto("/portal/deliveries");
  await dark.getByRole("row").nth(5).waitFor();
  await shoot(dark, "en-portal-deliveries-dark");
  await dark.context().close();
  // A consumer with nothing sent yet: the empty states say what to do next.
  const empty = await openPortal(browser, appUrl, "globex", "en", "light");
  await empty.goto("/portal/deliveries");
  await empty.getByText("No deliveries yet").waitFor();
  await shoot(empty, "en-portal-deliveries-empty");
  await empty.goto("/portal/recover");
  await empty.getByText("No recovery yet").waitFor();
  await shoot(empty, "en-portal-recover-empty");
  await empty.context().close();
}
