import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, afterEach, beforeEach } from "vitest";
import type { Api } from "./api";
import { launchBrowser, recordPage } from "./browser";
import { startBuiltApp } from "./built-app";
import { mintPortalLink } from "./portal";

type BuiltApp = Awaited<ReturnType<typeof startBuiltApp>>;
/** `scoped`: the page's context closes when the test ends (a failed test's page is printed first). */
type PageOptions = { locale?: string; clipboard?: boolean; context?: BrowserContextOptions; scoped?: boolean };

/**
 * What every browser suite shares: the production build served by `next start`, one headless
 * Chromium, pages in fresh contexts (a language, Tokyo's time zone) whose API calls, errors and
 * last screen a failed test prints, sign-in as an operator, and portal links. Call it at the top
 * level of the file; `open()` at the end of the file's own beforeAll (after its data is made).
 * Everything it started stops after the file.
 */
export function browserSuite() {
  let app: BuiltApp | undefined;
  let browser: Browser | undefined;
  let reports: (() => Promise<string>)[] = [];
  const hosts: Server[] = [];
  const scoped: BrowserContext[] = [];

  afterEach(async () => {
    for (const context of scoped.splice(0)) await context.close();
  });
  beforeEach(({ onTestFailed }) => {
    reports = [];
    onTestFailed(async () => {
      for (const report of reports) console.log(await report());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    for (const host of hosts) await new Promise((resolve) => host.close(resolve));
  });

  const suite = {
    get app(): BuiltApp {
      if (!app) throw new Error("browserSuite: open() first");
      return app;
    },
    get browser(): Browser {
      if (!browser) throw new Error("browserSuite: open() first");
      return browser;
    },
    /** Starts the built app with these variables, and the browser. */
    async open(env: Record<string, string> = {}): Promise<void> {
      app = await startBuiltApp(env);
      browser = await launchBrowser();
    },
    /** A page in a fresh context on the app, recorded for a failure's report; `clipboard` grants read and write. */
    async newPage(options: PageOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
      const context = await suite.browser.newContext({ baseURL: suite.app.url, locale: options.locale ?? "en-US", timezoneId: "Asia/Tokyo", ...options.context });
      if (options.clipboard) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: suite.app.url });
      if (options.scoped) scoped.push(context);
      const page = await context.newPage();
      reports.push(recordPage(page));
      return { context, page };
    },
    /** Signs in on /login (its fields by id: the form in either language) and waits for the overview. */
    async signIn(page: Page, email: string, password: string): Promise<void> {
      await page.goto("/login");
      await page.locator("#email").fill(email);
      await page.locator("#password").fill(password);
      await page.locator("form button[type=submit]").click();
      await page.waitForURL((url) => url.pathname === "/");
    },
    /** A new page signed in as this operator. */
    async signedIn(email: string, password: string, options: PageOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
      const opened = await suite.newPage(options);
      await suite.signIn(opened.page, email, password);
      return opened;
    },
    /** A fresh portal link's address on the built app (the in-process API names this process's APP_URL). */
    async portalLink(api: Api, consumer: string, link: Record<string, unknown> = {}): Promise<string> {
      return `${suite.app.url}/portal#token=${await mintPortalLink(api, consumer, link)}`;
    },
    /**
     * A SaaS's page around the portal, on another origin (localhost; the app is on 127.0.0.1):
     * `/?src=…` embeds that address in an iframe of this size, after `head` (a script, say). Its
     * origin, to allow in PORTAL_FRAME_ANCESTORS: start it before open().
     */
    async framingHost(size: { width: number; height: number }, head = ""): Promise<string> {
      const host = createServer((req, res) => {
        const src = new URL(req.url ?? "/", "http://x").searchParams.get("src") ?? "";
        res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>host</title>
${head}<iframe id="portal" allow="clipboard-write" style="width:${size.width}px;height:${size.height}px;border:0" src="${src.replace(/"/g, "&quot;")}"></iframe>`);
      });
      await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
      hosts.push(host);
      return `http://localhost:${(host.address() as AddressInfo).port}`;
    },
  };
  return suite;
}
