/** Ordered delivery's part of `npm run screenshots`: an ordered endpoint whose lines wait behind failing heads, and its card. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { getConfig, resetConfigForTests } from "../lib/config";
import { createEndpoint, listLines, updateEndpoint } from "../lib/endpoints";
import { createMessage } from "../lib/messages";
import { systemCtx } from "../lib/open-ctx";
import { startWorker } from "../worker/runtime";

/** Customers whose first invoice the receiver refuses (and the invoice without a customer): their lines wait. */
const REFUSED = new Set(["in_2001", "in_2002", "in_2006"]);

/**
 * An endpoint of Initech delivering in order by `customer`, its receiver answering 503 to the first
 * invoice of two customers and to one without a customer: three attempts each, a few seconds
 * apart, then the next an hour away, so three lines wait behind their heads while the screens are
 * shot. Run before the sample traffic (whose own worker gives one attempt per delivery); the
 * endpoint is then pointed at a URL that reads like a customer's. Answers its id.
 */
export async function seedOrdering(): Promise<string> {
  // The failures in a row would open the circuit and hold the heads before their third attempt.
  const threshold = process.env.CIRCUIT_FAILURE_THRESHOLD;
  Object.assign(process.env, { ALLOW_PRIVATE_ENDPOINTS: "true", ALLOW_HTTP_ENDPOINTS: "true", DELIVERY_SCHEDULE: "0,200ms,200ms,1h", CIRCUIT_FAILURE_THRESHOLD: "1000" });
  resetConfigForTests();
  const receiver: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const { invoice } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { invoice: string };
      res.writeHead(REFUSED.has(invoice) ? 503 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const ctx = systemCtx();
  const worker = await startWorker(process.env.DATABASE_URL!, getConfig());
  try {
    const endpoint = await createEndpoint({
      ctx,
      consumerRef: "initech",
      input: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/orders`, description: "Order sync", ordering: "ordered", ordering_key: "customer" },
    });
    const invoices: [string, string | null][] = [
      ["in_2001", "cus_8842"],
      ["in_2002", "cus_1203"],
      ["in_2003", "cus_8842"],
      ["in_2004", "cus_5120"],
      ["in_2005", "cus_8842"],
      ["in_2006", null],
      ["in_2007", "cus_1203"],
      ["in_2008", "cus_8842"],
      ["in_2009", null],
      ["in_2010", "cus_8842"],
    ];
    for (const [i, [invoice, customer]] of invoices.entries()) {
      const payload = { invoice, amount: 4200 + i * 300, currency: "jpy", ...(customer ? { customer } : {}) };
      await createMessage({ ctx, input: { consumer: "initech", event_type: "invoice.paid", payload } });
    }
    const settled = async () => {
      const lines = await listLines({ ctx, id: endpoint.id });
      return lines.lines_waiting === 3 && lines.lines.every((line) => line.head.attempts === 3);
    };
    for (let i = 0; i < 300 && !(await settled()); i++) await new Promise((r) => setTimeout(r, 100));
    if (!(await settled())) throw new Error("screenshots: the ordered endpoint's lines did not settle");
    await updateEndpoint({ ctx, id: endpoint.id, input: { url: "https://orders.initech.example.com/webhooks" } });
    return endpoint.id;
  } finally {
    await worker.stop();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    if (threshold === undefined) delete process.env.CIRCUIT_FAILURE_THRESHOLD;
    else process.env.CIRCUIT_FAILURE_THRESHOLD = threshold;
    resetConfigForTests();
  }
}

/** The ordered endpoint's page, its lines in view. Selectors hold in every language. */
export async function shootOrdering(page: Page, locale: string, endpointId: string, shoot: (page: Page, name: string) => Promise<void>): Promise<void> {
  await page.goto(`/endpoints/${endpointId}`);
  const card = page.getByTestId("ordering-card");
  await card.getByTestId("ordering-line").first().waitFor();
  // The card at the top, just below the sticky header, with what follows it.
  await card.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - 72));
  await shoot(page, `${locale}-endpoint-ordering`);
}
