import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

export type Received = { at: number; headers: IncomingMessage["headers"]; body: string; path: string };
type Handler = (req: IncomingMessage, res: ServerResponse, body: string, index: number) => unknown;

/** A real HTTP receiver on 127.0.0.1 that records what it gets and answers as told. */
export async function startReceiver(handler: Handler = (_req, res) => res.writeHead(204).end()) {
  const received: Received[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let respond = handler;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.on("close", () => (inFlight -= 1));
      const body = Buffer.concat(chunks).toString("utf8");
      const index = received.push({ at: Date.now(), headers: req.headers, body, path: req.url ?? "/" }) - 1;
      Promise.resolve(respond(req, res, body, index)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    get maxInFlight() {
      return maxInFlight;
    },
    setHandler(next: Handler) {
      respond = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A receiver in an outage: it answers `status.down` (500) until the test sets `up`, then
 * `status.up` (200), and `down` again when `up` is cleared — a customer's endpoint failing, then
 * healed.
 */
export async function startOutageReceiver(status: { down?: number; up?: number } = {}) {
  const receiver: Awaited<ReturnType<typeof startReceiver>> & { up: boolean } = Object.assign(
    await startReceiver((_req, res) => res.writeHead(receiver.up ? (status.up ?? 200) : (status.down ?? 500)).end()),
    { up: false },
  );
  return receiver;
}

export async function waitFor<T>(
  check: () => T | Promise<T>,
  options: { timeout?: number; interval?: number; what?: string; onTimeout?: () => void } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeout ?? 15_000);
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) {
      options.onTimeout?.();
      throw new Error(`timed out waiting for ${options.what ?? "condition"}`);
    }
    await new Promise((r) => setTimeout(r, options.interval ?? 25));
  }
}

type StartedReceiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * A receiver for the enclosing file or describe block, answering as `handler` says: started before
 * its tests, closed after them. Its fields are read when a test runs (after the start).
 */
export function runReceiver(handler?: Handler): StartedReceiver {
  let started: StartedReceiver | undefined;
  const receiver = () => {
    if (!started) throw new Error("the receiver starts before the tests: read it inside one");
    return started;
  };
  beforeAll(async () => {
    started = await startReceiver(handler);
  });
  afterAll(async () => {
    await started?.close();
  });
  return {
    get url() {
      return receiver().url;
    },
    get port() {
      return receiver().port;
    },
    get received() {
      return receiver().received;
    },
    get maxInFlight() {
      return receiver().maxInFlight;
    },
    setHandler: (next: Handler) => receiver().setHandler(next),
    close: () => receiver().close(),
  };
}
