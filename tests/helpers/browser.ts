import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { expect } from "vitest";

/**
 * Debian's Chromium (apt-get install chromium; .ci/run installs it), headless, in a fresh profile
 * of Playwright's own. The background-networking flags keep it from reaching out to a network
 * that is closed here.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * What a page did, for a failed test to print: its API calls (with status and time), browser
 * errors, and the words on its screen at the end — so a step that never came says why.
 */
export function recordPage(page: Page): () => Promise<string> {
  const started = Date.now();
  const events: string[] = [];
  const at = () => `+${Date.now() - started}ms`;
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/")) events.push(`${at()} → ${request.method()} ${request.url()}`);
  });
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/api/")) events.push(`${at()} ← ${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on("requestfailed", (request) => events.push(`${at()} ✗ ${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
  page.on("framenavigated", (frame) => frame === page.mainFrame() && events.push(`${at()} navigated to ${frame.url()}`));
  page.on("pageerror", (error) => events.push(`${at()} page error: ${error.message}`));
  page.on("console", (message) => message.type() === "error" && events.push(`${at()} console error: ${message.text()}`));
  return async () => {
    const screen = page.isClosed() ? "(closed)" : await page.locator("body").innerText({ timeout: 2_000 }).catch((error: Error) => `(unreadable: ${error.message})`);
    return `${page.url()} at ${at()}\n${events.join("\n")}\non screen:\n${screen}`;
  };
}

/**
 * Clicks `trigger` until `opened` shows. A click that lands before React has hydrated the page is
 * lost (the server-rendered button has no handler yet), which a loaded machine makes likely.
 */
export async function clickUntilShown(trigger: Locator, opened: Locator, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await opened.isVisible()) return;
    await trigger.click();
    try {
      await opened.waitFor({ timeout: 2_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/**
 * On a message's page (the dashboard's or the portal's), its one attempt failed with HTTP 500 and
 * the receiver's answer, opened, reads as `body` to the letter: shown as text, no element of it made.
 */
export async function expectFailedAttemptAsText(page: Page, body: string): Promise<void> {
  const attempt = page.getByTestId("attempt");
  await attempt.first().waitFor();
  expect(await attempt.count()).toBe(1);
  expect(await attempt.first().textContent()).toContain("HTTP 500");
  await page.getByText("Request headers and response").click();
  expect(await page.getByTestId("response-body").textContent()).toBe(body);
  expect(await page.locator("main img").count()).toBe(0);
}
