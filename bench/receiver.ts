import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The webhook receiver the worker delivers to: 127.0.0.1, keep-alive, answers 204 at once.
 * It counts requests per first path segment ("/e2e/3" counts as "e2e") and keeps the first
 * arrival time (performance.now()) of every webhook-id, so latencies can be matched to sends.
 * Requests under "/hung" are never answered: a broken endpoint for the isolation figure.
 */
export async function startReceiver(options: { onArrival?: (webhookId: string, at: number) => void } = {}) {
  const counts = new Map<string, number>();
  const firstAt = new Map<string, number>();
  const lastAt = new Map<string, number>();
  const arrivals = new Map<string, number>();
  let total = 0;
  let duplicates = 0;
  const server = createServer((req, res) => {
    const at = performance.now();
    const id = req.headers["webhook-id"];
    const group = (req.url ?? "/").split("/")[1] ?? "";
    req.resume();
    req.on("end", () => {
      total += 1;
      counts.set(group, (counts.get(group) ?? 0) + 1);
      if (!firstAt.has(group)) firstAt.set(group, at);
      lastAt.set(group, at);
      if (typeof id === "string") {
        if (arrivals.has(id)) duplicates += 1;
        else {
          arrivals.set(id, at);
          options.onArrival?.(id, at);
        }
      }
      if (group !== "hung") res.writeHead(204).end();
    });
  });
  // Longer than the worker's own keep-alive, so the worker is the side that closes idle sockets.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    count: (group: string) => counts.get(group) ?? 0,
    /** performance.now() of the group's first and latest request. */
    firstAt: (group: string) => firstAt.get(group),
    lastAt: (group: string) => lastAt.get(group),
    arrivalOf: (webhookId: string) => arrivals.get(webhookId),
    get total() {
      return total;
    },
    /** Requests for a webhook-id that had already arrived (redeliveries). */
    get duplicates() {
      return duplicates;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
