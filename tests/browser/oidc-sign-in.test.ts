import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import { operators } from "../../lib/db/schema";
import { createOperator, setOperatorDisabled } from "../../lib/operators";
import { systemCtx } from "../../lib/open-ctx";
import { browserSuite } from "../helpers/browser-suite";
import { freePort, startBuiltApp } from "../helpers/built-app";
import { CookieJar, send } from "../helpers/cookie-jar";
import { IDP_CLIENT, startIdp, type IdpUser } from "../helpers/oidc-idp";

/**
 * Single sign-on in Chromium, on the production build, against a real OpenID provider on
 * 127.0.0.1 (tests/helpers/oidc-idp.ts): the button on the sign-in page, the provider's own sign-in
 * form, back signed in — or back on the sign-in page saying why not, in either language. A second
 * build's process has PASSWORD_SIGN_IN=false. SSO_SHOTS=dir keeps screenshots of each screen.
 */
const suite = browserSuite();
let idp: Awaited<ReturnType<typeof startIdp>>;
let appPort: number;
let ssoOnlyPort: number;

const USERS: Record<string, IdpUser> = {
  ada: { email: "ada@example.com", email_verified: true, groups: ["platform-admins"] },
  nog: { email: "nog@example.com", email_verified: true, groups: ["marketing"] },
  dis: { email: "dis@example.com", email_verified: true, groups: ["platform-admins"] },
  vic: { email: "vic@example.com", email_verified: true, groups: ["support"] },
};

const shot = async (page: Page, name: string) => {
  if (process.env.SSO_SHOTS) await page.screenshot({ path: `${process.env.SSO_SHOTS}/${name}.png`, fullPage: true });
};

const sso = () => ({
  OIDC_ISSUER: idp.issuer,
  OIDC_CLIENT_ID: IDP_CLIENT.id,
  OIDC_CLIENT_SECRET: IDP_CLIENT.secret,
  OIDC_AUTO_CREATE: "true",
  OIDC_ROLE_MAP: "platform-admins=admin,support=viewer",
});

beforeAll(async () => {
  await createOperator({ ctx: systemCtx(), input: { email: "owner@example.com", password: "correct horse battery", role: "admin" } });
  await createOperator({ ctx: systemCtx(), input: { email: "dis@example.com", password: "correct horse battery", role: "admin" } });
  await setOperatorDisabled({ ctx: systemCtx(), input: { email: "dis@example.com", disabled: true } });
  appPort = await freePort();
  ssoOnlyPort = await freePort();
  const callback = (port: number) => `http://127.0.0.1:${port}/api/auth/callback/oidc`;
  idp = await startIdp({ redirectUris: [callback(appPort), callback(ssoOnlyPort)], users: USERS });
  await suite.open({ PORT: String(appPort), ...sso(), OIDC_LABEL: "Sign in with Example IdP" });
}, 600_000);

afterAll(async () => {
  await idp?.close();
});

/** From the sign-in page: the button, then the provider's form (any password), as a person would. */
async function throughIdp(page: Page, login: string, shots?: string) {
  await page.getByTestId("sso-button").click();
  await page.waitForURL((url) => url.origin === idp.issuer);
  await page.locator("input[name=login]").fill(login);
  await page.locator("input[name=password]").fill("anything");
  if (shots) await shot(page, `${shots}-idp-form`);
  await page.getByRole("button", { name: "Sign-in" }).click();
}

describe("single sign-on in the browser", () => {
  it("signs in through the button and the provider's form, creating the operator with its mapped role", async () => {
    const { page } = await suite.newPage({ scoped: true });
    await page.goto("/login?callbackUrl=%2Fapi-keys");
    await expect.poll(() => page.getByTestId("sso-button").textContent()).toBe("Sign in with Example IdP");
    // The password form is still there beside it.
    expect(await page.locator("#password").count()).toBe(1);
    await shot(page, "login-sso-en");
    await throughIdp(page, "ada", "ada");
    await page.waitForURL(`${suite.app.url}/api-keys`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).first().textContent()).toBeTruthy();
    await shot(page, "signed-in-en");
    const [row] = await getDb().select().from(operators).where(eq(operators.email, "ada@example.com"));
    expect(row).toMatchObject({ role: "admin", oidcSubject: "ada" });
  });

  it("brings a refusal back to the sign-in page in words, in English and in Japanese", async () => {
    const en = await suite.newPage({ scoped: true });
    await en.page.goto("/login");
    await throughIdp(en.page, "dis");
    await en.page.waitForURL(/\/login\?error=SsoRefused&reason=disabled/);
    await expect.poll(() => en.page.getByTestId("sso-error").textContent()).toBe("This operator is disabled. Ask an admin of Webhook Admin to enable it.");
    await shot(en.page, "refused-disabled-en");

    const ja = await suite.newPage({ locale: "ja-JP", scoped: true });
    await ja.page.goto("/login");
    // OIDC_LABEL is the provider's name as the operator set it, in any language.
    await expect.poll(() => ja.page.getByTestId("sso-button").textContent()).toBe("Sign in with Example IdP");
    await throughIdp(ja.page, "nog");
    await ja.page.waitForURL(/\/login\?error=SsoRefused&reason=no_role/);
    await expect.poll(() => ja.page.getByTestId("sso-error").textContent()).toContain("ID プロバイダーでのどのグループにも");
    await shot(ja.page, "refused-no-role-ja");
  });
});

describe("with PASSWORD_SIGN_IN=false", () => {
  let ssoOnly: Awaited<ReturnType<typeof startBuiltApp>>;
  beforeAll(async () => {
    ssoOnly = await startBuiltApp({ PORT: String(ssoOnlyPort), ...sso(), PASSWORD_SIGN_IN: "false" });
  }, 120_000);
  afterAll(async () => {
    await ssoOnly?.stop();
  });

  it("offers single sign-on alone, in both languages, and signs in through it", async () => {
    for (const [locale, button, hint] of [
      ["en-US", "Sign in with single sign-on", "Operators sign in through your organization's identity provider."],
      ["ja-JP", "シングルサインオンでサインイン", "オペレーターは組織の ID プロバイダーからサインインします。"],
    ] as const) {
      const context = await suite.browser.newContext({ baseURL: ssoOnly.url, locale });
      const page = await context.newPage();
      await page.goto("/login");
      await expect.poll(() => page.getByTestId("sso-button").textContent()).toBe(button);
      expect(await page.locator("#password").count()).toBe(0);
      expect(await page.locator("#email").count()).toBe(0);
      expect(await page.getByText(hint).count()).toBe(1);
      await shot(page, `login-sso-only-${locale.slice(0, 2)}`);
      if (locale === "en-US") {
        await throughIdp(page, "vic");
        await page.waitForURL(`${ssoOnly.url}/`);
        await expect.poll(() => page.getByRole("heading", { level: 1 }).first().textContent()).toBeTruthy();
      }
      await context.close();
    }
  });

  it("refuses a right password posted straight to Auth.js", async () => {
    const jar = new CookieJar();
    const { csrfToken } = (await (await send(jar, `${ssoOnly.url}/api/auth/csrf`)).json()) as { csrfToken: string };
    const answer = await send(jar, `${ssoOnly.url}/api/auth/callback/credentials`, {
      form: { csrfToken, email: "owner@example.com", password: "correct horse battery", callbackUrl: `${ssoOnly.url}/` },
    });
    expect(new URL(answer.headers.get("location")!).pathname).toBe("/login");
    expect([...jar.cookies.keys()].some((name) => name.includes("session-token"))).toBe(false);
  });
});
