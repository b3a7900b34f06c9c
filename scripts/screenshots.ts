/**
 * `npm run screenshots`: every built dashboard and portal screen, in English and Japanese (and a few in dark
 * mode), written to docs/screenshots/. Runs the production build against a throwaway embedded
 * PostgreSQL filled with a little sample data. Japanese needs a CJK font for Chromium
 * (`apt-get install fonts-noto-cjk`).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { createAlertChannel } from "../lib/alerts/create-alert-channel";
import { createApiKey } from "../lib/api-keys";
import { createConsumer } from "../lib/consumers";
import { createEndpoint, getEndpointSecret } from "../lib/endpoints";
import { closeDb, getDb } from "../lib/db/client";
import type { Ctx } from "../lib/context";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { migrateDatabase } from "../lib/db/migrate";
import { createEventType } from "../lib/event-types";
import { createOperator } from "../lib/operators";
import { launchBrowser } from "../tests/helpers/browser";
import { seedData, shootData, type DataSample } from "./screenshots-data";
import { seedFilter, shootFilter } from "./screenshots-filters";
import { seedOrdering, shootOrdering } from "./screenshots-ordering";
import { seedSchemas, shootSchemas } from "./screenshots-schemas";
import { seedTraffic, shootLogs } from "./screenshots-logs";
import { shootPortal } from "./screenshots-portal";
import { shootPortalLogs } from "./screenshots-portal-logs";
import { shootReceiving } from "./screenshots-receiving";
import { startBuiltApp } from "../tests/helpers/built-app";
import { openCtx, systemCtx } from "../lib/open-ctx";

// SCREENSHOTS_OUT writes them elsewhere (to pick a few without touching the others).
const OUT = path.resolve(process.env.SCREENSHOTS_OUT ?? "docs/screenshots");
const PASSWORD = "screenshots only";

/** A few consumers and endpoints in each health state, an alert channel, an audited secret reveal. */
async function seedConsumers(ctx: Ctx): Promise<string> {
  const db = ctx.db;
  for (const [uid, name] of [["acme", "Acme Corporation"], ["globex", "Globex"], ["initech", "Initech"], ["umbrella", "Umbrella Health"]]) {
    await createConsumer({ ctx, input: { uid: uid!, name: name!, alert_emails: [`ops@${uid}.example.com`] } });
  }
  const billing = await createEndpoint({ ctx, consumerRef: "acme", input: { url: "https://hooks.acme.example.com/billing", description: "Billing", event_types: ["invoice.paid"], rate_limit_per_second: 50 } });
  const crm = await createEndpoint({ ctx, consumerRef: "acme", input: { url: "https://crm.acme.example.com/webhooks", description: "CRM sync" } });
  await createEndpoint({ ctx, consumerRef: "acme", input: { url: "https://legacy.acme.example.com/hook", disabled: true } });
  await db.execute(sql`update endpoints set failing_since = now() - interval '47 minutes', consecutive_failures = 12, circuit_open_until = now() + interval '4 minutes' where id = ${crm.id}`);
  await createAlertChannel({ ctx, input: { kind: "slack", name: "#webhooks-oncall", config: { webhook_url: "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX" } } });
  await createAlertChannel({ ctx, input: { kind: "email", name: "Ops mailbox", config: { to: ["ops@example.com"] }, kinds: ["endpoint.disabled", "endpoint.recovered"] } });
  const admin = await db.execute<{ id: string }>(sql`select id from operators where email = 'admin@example.com'`);
  const adminId = (admin as unknown as { id: string }[])[0]!.id;
  await getEndpointSecret({ ctx: openCtx({ type: "operator", id: adminId, role: "admin" }), id: billing.id });
  await seedHistory(db, { steady: billing.id, failing: crm.id });
  return billing.id;
}

/**
 * A week of what the rollup would hold had these endpoints been delivering all along, so the
 * charts have days to draw: a daily rhythm, a few bad minutes, a tail of slow responses, and the
 * failing endpoint's 47 minutes of failures. Appended as the outcome writes append (one row per
 * endpoint and minute; older than two hours, one row per five minutes carrying five minutes' worth).
 */
async function seedHistory(db: ReturnType<typeof getDb>, endpoints: { steady: string; failing: string }): Promise<void> {
  await db.execute(sql`
    insert into attempt_stats_pending (endpoint_id, consumer_id, minute, attempts, succeeded, failed, latency_buckets, latency_counts)
    select e.id, e.consumer_id, m.minute, v.n, v.n - f.f, f.f, h.ks, h.ns
    from endpoints e
    cross join generate_series(date_trunc('minute', now()) - interval '7 days', date_trunc('minute', now()), interval '1 minute') as m(minute)
    cross join lateral (
      select (case when m.minute > now() - interval '2 hours' then 1 else 5 end)
             * greatest(1, round(14 + 10 * sin(extract(epoch from m.minute) / 86400 * 2 * pi()) + random() * 6))::int as n
    ) v
    cross join lateral (
      select case when e.id = ${endpoints.failing} and m.minute > now() - interval '47 minutes' then v.n
                  when random() < 0.02 then ceil(v.n * 0.5)::int
                  else (random() < 0.15)::int end as f
    ) f
    cross join lateral (
      select array_agg(k order by k) as ks, array_agg(c order by k) as ns
      from (values (webhook_admin_latency_bucket((80 + random() * 70)::int), v.n - v.n / 20),
                   (webhook_admin_latency_bucket((700 + random() * 900)::int), v.n / 20)) as b(k, c)
      where c > 0
    ) h
    where e.id in (${endpoints.steady}, ${endpoints.failing})
      and (m.minute > now() - interval '2 hours' or extract(minute from m.minute)::int % 5 = 0)`);
}

async function seed(): Promise<void> {
  const db = getDb();
  const ctx = systemCtx();
  await createOperator({ ctx, input: { email: "admin@example.com", password: PASSWORD, role: "admin" } });
  await createOperator({ ctx, input: { email: "oncall@example.com", password: PASSWORD, role: "viewer" } });
  await createOperator({ ctx, input: { email: "support@example.com", password: PASSWORD, role: "viewer" } });
  for (const name of ["backend-production", "billing-worker", "staging"]) await createApiKey({ ctx, input: { name } });
  await createEventType({
    ctx,
    input: {
      name: "invoice.paid",
      description: "An invoice was paid in full.",
      schema: { type: "object", required: ["invoice", "amount"], properties: { invoice: { type: "string" }, amount: { type: "integer" }, currency: { type: "string" } } },
      example: { invoice: "in_1Q2w3E", amount: 4200, currency: "jpy" },
    },
  });
  await createEventType({ ctx, input: { name: "customer.created", description: "A customer signed up.", example: { customer: "cus_8842", plan: "team" } } });
  await createEventType({ ctx, input: { name: "subscription.canceled", description: "A subscription ended at the customer's request." } });
  // Spread the sample over the past weeks, so relative times read like a real install.
  await db.execute(sql`update api_keys set created_at = now() - (random() * interval '40 days'), last_used_at = now() - (random() * interval '3 hours') where name <> 'staging'`);
  await db.execute(sql`update operators set created_at = now() - (random() * interval '60 days')`);
  await db.execute(sql`update event_types set created_at = now() - (random() * interval '20 days')`);
  endpointId = await seedConsumers(ctx);
}

let endpointId = "";
let dataSample: DataSample | undefined;

async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  // Let toasts and transitions finish.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
  console.log(`  ${name}.png`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "wa-screenshots-"));
  const pg = await startEmbeddedPostgres({ dir, settings: { fsync: "off", synchronous_commit: "off" } });
  let app: Awaited<ReturnType<typeof startBuiltApp>> | undefined;
  let traffic: Awaited<ReturnType<typeof seedTraffic>> | undefined;
  const browser = await launchBrowser();
  try {
    Object.assign(process.env, {
      DATABASE_URL: pg.url,
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      LOG_LEVEL: "warn",
    });
    await migrateDatabase(pg.url);
    await seed();
    // Before the traffic: its worker would give each failing head one attempt, and the line would move on.
    const orderedId = await seedOrdering();
    traffic = await seedTraffic();
    dataSample = await seedData(systemCtx());
    await seedFilter(endpointId);
    await seedSchemas();
    console.log("Building if needed and starting the app…");
    app = await startBuiltApp();
    mkdirSync(OUT, { recursive: true });
    for (const locale of ["en", "ja"] as const) {
      for (const theme of ["light", "dark"] as const) {
        const context = await browser.newContext({
          baseURL: app.url,
          viewport: { width: 1280, height: 800 },
          locale: locale === "ja" ? "ja-JP" : "en-US",
          timezoneId: locale === "ja" ? "Asia/Tokyo" : "Europe/London",
          colorScheme: theme,
        });
        const host = new URL(app.url).hostname;
        await context.addCookies([
          { name: "NEXT_LOCALE", value: locale, domain: host, path: "/" },
          { name: "theme", value: theme, domain: host, path: "/" },
        ]);
        const page = await context.newPage();
        const suffix = theme === "dark" ? "-dark" : "";
        await page.goto("/login");
        if (theme === "light") await shoot(page, `${locale}-login`);
        await page.locator("#email").fill("admin@example.com");
        await page.locator("#password").fill(PASSWORD);
        await page.locator("form button[type=submit]").click();
        await page.waitForURL((url) => url.pathname === "/");
        await page.goto("/api-keys");
        await page.getByRole("row").nth(3).waitFor();
        await shoot(page, `${locale}-api-keys${suffix}`);
        if (theme === "dark") {
          if (locale === "en") {
            await page.goto("/");
            await page.getByTestId("stats-volume").waitFor();
            await shoot(page, `${locale}-overview${suffix}`);
          }
          await context.close();
          continue;
        }
        await page.locator("main").getByRole("button").first().click();
        await page.locator("#api-key-name").fill(locale === "ja" ? "analytics" : "reporting");
        await page.locator("[role=dialog] button[type=submit]").click();
        await page.getByTestId("new-api-key").waitFor();
        await page.getByText(/backend-production/).first().waitFor();
        await shoot(page, `${locale}-api-key-created`);
        await page.keyboard.press("Escape");
        await page.goto("/event-types");
        await page.locator("details summary").first().click();
        await shoot(page, `${locale}-event-types`);
        await shootSchemas(page, locale, shoot);
        await page.goto("/operators");
        await page.getByRole("row").nth(3).waitFor();
        await shoot(page, `${locale}-operators`);
        await shootLogs(page, locale, shoot);
        await shootData(page, locale, shoot, dataSample!);
        await page.goto("/");
        await page.getByTestId("stats-volume").waitFor();
        await shoot(page, `${locale}-overview`);
        await page.goto("/consumers");
        await page.getByRole("row").nth(4).waitFor();
        await shoot(page, `${locale}-consumers`);
        await page.goto("/consumers/acme");
        await page.getByTestId("endpoint-state").first().waitFor();
        await page.getByTestId("stats-sparkline").first().waitFor();
        await shoot(page, `${locale}-consumer`);
        await page.goto(`/endpoints/${endpointId}`);
        await page.getByTestId("stats-volume").waitFor();
        await shoot(page, `${locale}-endpoint`);
        await shootFilter(page, locale, shoot);
        await shootOrdering(page, locale, orderedId, shoot);
        await page.goto("/alerts");
        await page.getByRole("row").nth(2).waitFor();
        await shoot(page, `${locale}-alerts`);
        await page.goto("/audit");
        await page.getByRole("row").nth(1).waitFor();
        await shoot(page, `${locale}-audit`);
        await context.close();
      }
      await shootPortal(browser, app.url, locale, shoot);
      await shootReceiving(browser, app.url, locale, shoot);
    }
    // The customer portal's Deliveries and Recover screens.
    await shootPortalLogs(browser, app.url, shoot);

    console.log(`Screenshots written to ${path.relative(process.cwd(), OUT)}/`);
  } finally {
    await browser.close();
    await app?.stop();
    await traffic?.stop();
    await closeDb();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
