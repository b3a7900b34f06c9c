/** The message log's and recoveries' part of `npm run screenshots`: sample traffic, then their screens. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { getConfig, resetConfigForTests } from "../lib/config";
import { createEndpoint } from "../lib/endpoints";
import { createMessage } from "../lib/messages";
import { createRecovery } from "../lib/recoveries";
import { startWorker } from "../worker/runtime";
import { systemCtx } from "../lib/open-ctx";

/** Sends a few dozen messages through the real worker to a receiver that fails every third one, and recovers them. */
export async function seedTraffic(): Promise<{ stop: () => Promise<void> }> {
  Object.assign(process.env, { ALLOW_PRIVATE_ENDPOINTS: "true", ALLOW_HTTP_ENDPOINTS: "true", DELIVERY_SCHEDULE: "0", RECOVERY_TICK: "100ms", RECOVERY_RAMP_EVERY: "1ms" });
  resetConfigForTests();
  let n = 0;
  let healthy = false;
  const receiver: Server = createServer((_req, res) => {
    n += 1;
    if (healthy || n % 3 !== 0) res.writeHead(200).end('{"ok":true}');
    else res.writeHead(503, { "content-type": "text/html" }).end("<html><body><h1>503 Service Unavailable</h1></body></html>");
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const ctx = systemCtx();
  const worker = await startWorker(process.env.DATABASE_URL!, getConfig());
  // The consumer is seeded with the dashboard's sample (scripts/screenshots.ts), before this.
  await createEndpoint({ ctx, consumerRef: "acme", input: { url: `${url}/webhooks`, description: "Ledger sync" } });
  for (let i = 0; i < 24; i++) {
    const paid = i % 2 === 0;
    await createMessage({
      ctx,
      input: { consumer: "acme", event_type: paid ? "invoice.paid" : "customer.created", payload: paid ? { invoice: `in_${1000 + i}`, amount: 4200 + i * 100, currency: "jpy" } : { customer: `cus_${8800 + i}`, plan: "team" } },
    });
  }
  const pending = async () => (await ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from deliveries where status = 'pending'`))[0]!.n;
  for (let i = 0; i < 300 && (await pending()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
  healthy = true;
  await createRecovery({ ctx, target: { consumer: "acme" }, input: { since: new Date(Date.now() - 3_600_000) } });
  return {
    stop: async () => {
      await worker.stop();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    },
  };
}

export async function shootLogs(page: Page, locale: string, shoot: (page: Page, name: string) => Promise<void>): Promise<void> {
  await page.goto("/messages");
  await page.getByRole("row").nth(5).waitFor();
  await shoot(page, `${locale}-messages`);
  await page.locator("main table a").first().click();
  await page.getByTestId("attempt").first().waitFor();
  await page.locator("details summary").first().click();
  await shoot(page, `${locale}-message`);
  await page.goto("/recoveries");
  await page.getByTestId("recovery-progress").first().waitFor();
  await shoot(page, `${locale}-recoveries`);
  await page.locator("main table a").first().click();
  await page.getByTestId("count-succeeded").waitFor();
  await shoot(page, `${locale}-recovery`);
  await page.goto("/recoveries/new?consumer=acme");
  await page.locator("main form button[type=submit]").click();
  await page.getByTestId("dry-run-count").waitFor();
  await shoot(page, `${locale}-recovery-new`);
}
