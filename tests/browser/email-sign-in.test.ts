import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import { signInTokens } from "../../lib/db/schema";
import { createOperator } from "../../lib/operators";
import { browserSuite } from "../helpers/browser-suite";
import { startBuiltApp } from "../helpers/built-app";
import { startSmtpServer } from "../helpers/smtp";
import { systemCtx } from "../../lib/open-ctx";

/**
 * The email sign-in link where SMTP_URL is set: against the production build, a real SMTP server
 * on 127.0.0.1 and Chromium for the sign-in page; the Auth.js route itself over plain HTTP for
 * what a script could send it directly.
 */
const PASSWORD = "correct horse battery";
const suite = browserSuite();
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  const system = systemCtx();
  for (const email of ["admin@example.com", "viewer@example.com", "ja@example.com", "limited@example.com", "spray@example.com"]) {
    await createOperator({ ctx: system, input: { email, password: PASSWORD, role: email.startsWith("viewer") ? "viewer" : "admin" } });
  }
  smtp = await startSmtpServer();
  await suite.open({
    SMTP_URL: smtp.url,
    LOGIN_MAX_FAILURES_PER_EMAIL: "3",
    LOGIN_MAX_FAILURES_PER_ADDRESS: "6",
    TRUST_PROXY: "true",
  });
}, 600_000);

afterAll(async () => {
  await smtp?.close();
});

const linkIn = (text: string) => /(http:\/\/\S+\/api\/auth\/callback\/email\?\S+)/.exec(text)?.[1];

/** Asks the Auth.js route for a link as a script would (CSRF token first); answers where it redirects. */
async function requestLink(email: string, headers: Record<string, string> = {}) {
  const csrf = await fetch(`${suite.app.url}/api/auth/csrf`, { headers });
  const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${suite.app.url}/api/auth/signin/email`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, cookie: [cookie, headers.cookie].filter(Boolean).join("; "), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, csrfToken, callbackUrl: "/" }),
  });
  return res.headers.get("location") ?? "";
}

/** Follows a link without a browser: where it sends the client, and the session cookie it sets, if any. */
async function follow(link: string) {
  const res = await fetch(link, { redirect: "manual" });
  const session = res.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token=") && !c.startsWith("authjs.session-token=;"));
  return { location: res.headers.get("location") ?? "", session: session?.split(";")[0] ?? null };
}

describe("the email sign-in link", () => {
  it("mails an operator a one-time link from the sign-in page, which signs in once", async () => {
    const context = await suite.browser.newContext({ baseURL: suite.app.url, locale: "en-US" });
    const page = await context.newPage();
    await page.goto("/login?callbackUrl=%2Fapi-keys");
    await page.getByLabel("Email").fill("admin@example.com");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect.poll(() => page.getByTestId("link-sent").textContent()).toContain("Check your inbox");
    await expect.poll(() => smtp.to("admin@example.com").length, { timeout: 15_000 }).toBe(1);
    const { mail } = smtp.to("admin@example.com")[0]!;
    expect(mail.subject).toBe("Your sign-in link for Webhook Admin");
    const link = linkIn(mail.text ?? "")!;
    expect(link.startsWith(`${suite.app.url}/api/auth/callback/email?`)).toBe(true);
    expect(mail.html).toContain(link.replace(/&/g, "&amp;"));
    // Only a hash of the token is kept.
    const token = new URL(link).searchParams.get("token")!;
    const rows = await getDb().select().from(signInTokens);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(token);

    await page.goto(link);
    await page.waitForURL(`${suite.app.url}/api-keys`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).first().textContent()).toBeTruthy();
    expect(await getDb().select().from(signInTokens)).toHaveLength(0);

    // The same link again, elsewhere: refused, back to sign-in with a reason.
    const other = await suite.browser.newContext({ baseURL: suite.app.url, locale: "en-US" });
    const second = await other.newPage();
    await second.goto(link);
    await second.waitForURL(/\/login\?error=Verification/);
    await expect.poll(() => second.getByTestId("login-error").textContent()).toContain("expired or was already used");
    await other.close();
    await context.close();
  });

  it("answers an unknown address exactly like an operator's, and mails it nothing", async () => {
    const context = await suite.browser.newContext({ baseURL: suite.app.url, locale: "en-US" });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect.poll(() => page.getByTestId("link-sent").textContent()).toBe(
      "Check your inbox: if nobody@example.com belongs to an operator, a sign-in link is on its way.",
    );
    expect(await requestLink("nobody@example.com")).toBe(await requestLink("viewer@example.com"));
    // The operator's mail arrives; by then the unknown address would have had one too.
    await expect.poll(() => smtp.to("viewer@example.com").length, { timeout: 15_000 }).toBe(1);
    expect(smtp.to("nobody@example.com")).toHaveLength(0);
    expect(await getDb().execute(sql`select 1 from sign_in_tokens where email = 'nobody@example.com'`)).toHaveLength(0);
    await context.close();
  });

  it("refuses an expired link, and signs in as the operator row says", async () => {
    smtp.received.length = 0;
    await requestLink("ja@example.com", { cookie: "NEXT_LOCALE=ja" });
    await expect.poll(() => smtp.to("ja@example.com").length, { timeout: 15_000 }).toBe(1);
    const mail = smtp.to("ja@example.com")[0]!.mail;
    // The language chosen on the sign-in page.
    expect(mail.subject).toBe("Webhook Admin のサインイン用リンク");
    const expired = linkIn(mail.text ?? "")!;
    await getDb().execute(sql`update sign_in_tokens set expires_at = now() - interval '1 second' where email = 'ja@example.com'`);
    expect(await follow(expired)).toEqual({ location: expect.stringMatching(/\/login\?error=Verification$/), session: null });

    await requestLink("viewer@example.com");
    await expect.poll(() => smtp.to("viewer@example.com").length, { timeout: 15_000 }).toBe(1);
    const signedIn = await follow(linkIn(smtp.to("viewer@example.com")[0]!.mail.text ?? "")!);
    // Back to APP_URL, where the session cookie was set.
    expect(signedIn.location).toBe(`${suite.app.url}/`);
    expect(signedIn.session).toBeTruthy();
    // A viewer's session from a link reads and cannot change anything, as with a password.
    const headers = { cookie: signedIn.session!, origin: suite.app.url, "content-type": "application/json" };
    expect((await fetch(`${suite.app.url}/api/v1/consumers`, { headers })).status).toBe(200);
    expect((await fetch(`${suite.app.url}/api/v1/consumers`, { method: "POST", headers, body: JSON.stringify({ uid: "x", name: "X" }) })).status).toBe(403);
  });

  it("limits link requests per email and per client address, like password sign-ins", async () => {
    smtp.received.length = 0;
    const context = await suite.browser.newContext({ baseURL: suite.app.url, locale: "en-US", extraHTTPHeaders: { "x-forwarded-for": "198.51.100.9" } });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Email").fill("limited@example.com");
    for (let i = 1; i <= 3; i++) {
      // The click waits for the previous request's answer, which comes after its mail.
      await page.getByRole("button", { name: "Email me a sign-in link" }).click();
      await expect.poll(() => smtp.to("limited@example.com").length, { timeout: 15_000 }).toBe(i);
    }
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect.poll(() => page.getByTestId("link-error").textContent()).toContain("Too many sign-in attempts");
    // The address stays typed through every answer, the refusal included.
    expect(await page.getByLabel("Email").inputValue()).toBe("limited@example.com");
    await context.close();
    expect(await requestLink("limited@example.com", { "x-forwarded-for": "198.51.100.10" })).toMatch(/\/login\?error=CredentialsSignin&code=rate_limited/);
    expect(smtp.to("limited@example.com")).toHaveLength(3);

    // One address asking for many emails: the sixth is the last it gets.
    const address = { "x-forwarded-for": "203.0.113.77" };
    for (let i = 0; i < 5; i++) expect(await requestLink(`spray${i}@example.net`, address)).not.toContain("error=");
    expect(await requestLink("spray@example.com", address)).not.toContain("error=");
    expect(await requestLink("spray@example.com", address)).toMatch(/error=CredentialsSignin&code=rate_limited/);
    await expect.poll(() => smtp.to("spray@example.com").length, { timeout: 15_000 }).toBe(1);
  });
});

describe("without SMTP_URL", () => {
  it("offers no sign-in link and its route sends none", async () => {
    const plain = await startBuiltApp();
    const tokensBefore = (await getDb().select().from(signInTokens)).length;
    try {
      const context = await suite.browser.newContext({ baseURL: plain.url, locale: "en-US" });
      const page = await context.newPage();
      await page.goto("/login");
      await expect.poll(() => page.getByRole("button", { name: "Sign in" }).count()).toBe(1);
      expect(await page.getByRole("button", { name: "Email me a sign-in link" }).count()).toBe(0);
      await context.close();
      const csrf = await fetch(`${plain.url}/api/auth/csrf`);
      const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const res = await fetch(`${plain.url}/api/auth/signin/email`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: "admin@example.com", csrfToken, callbackUrl: "/" }),
      });
      expect(res.headers.get("location")).not.toMatch(/verify-request/);
      expect(await getDb().select().from(signInTokens)).toHaveLength(tokensBefore);
    } finally {
      await plain.stop();
    }
  });
});
