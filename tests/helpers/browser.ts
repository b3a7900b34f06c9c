import { chromium, type Browser } from "playwright-core";

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
