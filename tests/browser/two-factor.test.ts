import { setTimeout as sleep } from "node:timers/promises";
import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createOperator } from "../../lib/operators";
import { systemCtx } from "../../lib/open-ctx";
import { browserSuite } from "../helpers/browser-suite";

/**
 * The second factor and the sessions list in Chromium, on the production build: enroll from the
 * QR page (the secret read from its text fallback, the codes made by the library as an app makes
 * them), sign out, sign in with the password and then the code, and end another session from the
 * list — in English and in Japanese. TWO_FACTOR_SHOTS=<folder> saves screenshots of each screen.
 */
const PASSWORD = "correct horse battery";
const suite = browserSuite();
const SHOTS = process.env.TWO_FACTOR_SHOTS;

const codeFor = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

/** A step with 10 s of it left before codes are made, so that "the next step's code" stays within the window when read. */
async function stepWithTimeToSpare(): Promise<void> {
  const left = TOTP.remaining({ period: 30 });
  if (left < 10_000) await sleep(left + 50);
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Enrolls on /account from the QR page's text fallback; answers the secret and the step its confirming code used. */
async function enroll(page: Page, names: { setUp: string | RegExp; confirm: string | RegExp }, prefix: string): Promise<string> {
  await page.goto("/account");
  await page.getByRole("button", { name: names.setUp }).click();
  await expect.poll(() => page.getByTestId("totp-qr").isVisible()).toBe(true);
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await shot(page, `${prefix}-enroll`);
  await stepWithTimeToSpare();
  await page.locator("#totp-code").fill(codeFor(secret));
  await page.getByRole("button", { name: names.confirm }).click();
  await expect.poll(() => page.getByTestId("recovery-codes").locator("li").count()).toBe(10);
  await shot(page, `${prefix}-recovery-codes`);
  return secret;
}

/** Password first; the form then asks for the code, which the next step's code answers (this step's confirmed the factor). */
async function signInWithCode(page: Page, email: string, secret: string, prefix: string) {
  await page.goto("/login");
  await page.locator("#email").fill(email);
  await page.locator("#password").fill(PASSWORD);
  await page.locator("form button[type=submit]").click();
  await expect.poll(() => page.getByTestId("code-step").isVisible()).toBe(true);
  await shot(page, `${prefix}-code-step`);
  await page.locator("#code").fill(codeFor(secret, 1));
  await page.locator("form button[type=submit]").click();
  await page.waitForURL((url) => url.pathname === "/");
}

beforeAll(async () => {
  for (const email of ["en-2fa@example.com", "ja-2fa@example.com"]) {
    await createOperator({ ctx: systemCtx(), input: { email, password: PASSWORD, role: email.startsWith("en") ? "admin" : "viewer" } });
  }
  await suite.open();
}, 600_000);

// Each step is a test of its own (the browser suites' 60 s is per test); they run in order on the
// pages and secrets the steps before them left.
describe("two-factor sign-in and sessions, in English", () => {
  const email = "en-2fa@example.com";
  let other: Page;
  let page: Page;
  let secret: string;

  it("signs in twice with the password alone while there is no factor", async () => {
    // A second browser, signed in before the factor existed: the session ended from the list below.
    other = (await suite.signedIn(email, PASSWORD)).page;
    page = (await suite.signedIn(email, PASSWORD)).page;
  });

  it("enrolls from the QR page and shows the recovery codes once", async () => {
    secret = await enroll(page, { setUp: "Set up an authenticator app", confirm: "Confirm and turn on" }, "en");
    await page.getByRole("button", { name: "Done" }).click();
    await expect.poll(() => page.getByTestId("two-factor-on").textContent()).toContain("10 recovery codes left");
  });

  it("signs out, then signs in with the password and, asked for it, the code", async () => {
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL(/\/login/);
    await signInWithCode(page, email, secret, "en");
  });

  it("lists this device and the other browser, and ends the other's session", async () => {
    await page.goto("/account");
    const rows = page.getByTestId("sessions-card").locator("tbody tr");
    // The session signed out above is gone from the list.
    await expect.poll(() => rows.count()).toBe(2);
    const current = rows.filter({ hasText: "This device" });
    expect(await current.count()).toBe(1);
    expect(await current.textContent()).toContain("Chrome on Linux");
    await shot(page, "en-sessions");
    await rows.filter({ hasNotText: "This device" }).getByRole("button", { name: "End" }).click();
    await expect.poll(() => rows.count()).toBe(1);
    await other.goto("/");
    await other.waitForURL(/\/login/);
  });
});

describe("two-factor sign-in and sessions, in Japanese", () => {
  const email = "ja-2fa@example.com";
  let page: Page;
  let secret: string;

  it("enrolls from the QR page", async () => {
    page = (await suite.signedIn(email, PASSWORD, { locale: "ja-JP" })).page;
    await page.goto("/account");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("アカウント");
    secret = await enroll(page, { setUp: "認証アプリを設定", confirm: "確認して有効にする" }, "ja");
    expect(await page.getByTestId("two-factor-card").textContent()).toContain("リカバリーコード");
    await page.getByRole("button", { name: "完了" }).click();
    await expect.poll(() => page.getByTestId("two-factor-on").textContent()).toContain("残り10個");
  });

  it("signs out and in again with the code", async () => {
    await page.locator("header form button[type=submit]").click();
    await page.waitForURL(/\/login/);
    await signInWithCode(page, email, secret, "ja");
  });

  it("lists this device", async () => {
    await page.goto("/account");
    await expect.poll(() => page.getByTestId("sessions-card").locator("tbody tr").count()).toBe(1);
    expect(await page.getByTestId("sessions-card").textContent()).toContain("このデバイス");
    await shot(page, "ja-sessions");
  });
});
