/**
 * The production web server: Next.js as `next start` runs it (its own request handler, from its
 * public custom-server API), with one difference — a request for a route that offered itself as a
 * lean route (lib/http/lean-routes.ts: POST /api/v1/messages) goes straight to that route's own
 * handler, the same function Next.js would call, without Next.js's routing in front of it
 * (ADR 0035). Everything else, and such a route until Next.js has loaded its module once, is
 * Next.js's. The answer carries the headers next.config.ts gives every route (read from the
 * build's routes manifest, so they stay the build's). `npm start` and `npm run web` run this
 * (scripts/start.ts); `npm run dev` runs `next dev`.
 *
 * Usage: node --import tsx web/server.ts --port 3000 [--hostname 0.0.0.0]
 * SIGTERM and SIGINT: stops taking connections, lets the requests in flight finish, exits (after
 * instrumentation.ts's SHUTDOWN_DELAY, which it puts in front of this).
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { leanRoute } from "../lib/http/lean-routes";

const { values } = parseArgs({ options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } } });
const port = Number(values.port ?? process.env.PORT ?? 3000);
const hostname = values.hostname;
const ORIGIN = `http://localhost:${port}`;
(process.env as Record<string, string | undefined>).NODE_ENV ??= "production";

type HeaderRule = { regex: string; headers: { key: string; value: string }[]; has?: unknown; missing?: unknown };

/**
 * The headers next.config.ts's headers() gives a path, as the build compiled them (null: ask
 * Next.js). Asked only for a lean route's own path, so its cache holds one entry per lean route,
 * never a path a client made up.
 */
function configHeaders(dir: string): (pathname: string) => [string, string][] | null {
  const manifest = JSON.parse(readFileSync(path.join(dir, ".next", "routes-manifest.json"), "utf8")) as { headers?: HeaderRule[] };
  // Conditional rules (has/missing) would need the request; none are configured, and such a rule
  // keeps its path with Next.js rather than being answered without it.
  const rules = (manifest.headers ?? []).map((rule) => ({ re: new RegExp(rule.regex), rule }));
  const cache = new Map<string, [string, string][] | null>();
  return (pathname) => {
    let found = cache.get(pathname);
    if (found === undefined) {
      const matching = rules.filter(({ re }) => re.test(pathname));
      found = matching.some(({ rule }) => rule.has || rule.missing) ? null : matching.flatMap(({ rule }) => rule.headers.map((h) => [h.key, h.value] as [string, string]));
      cache.set(pathname, found);
    }
    return found;
  };
}

// A body whose declared length is at most this is read whole before the handler runs (Node.js's
// parser holds the client to that length); a larger or chunked one is streamed, so the route's own
// limit cuts it off. A web stream over the request cost more than the rest of the lean path's
// transport (bench part a1).
const READ_WHOLE_BYTES = 64 * 1024;
// Such a body is read before the route has authenticated anyone: a client that does not send what
// it declared within this long is cut off, rather than held until Node.js's request timeout.
const READ_WHOLE_WITHIN_MS = 10_000;

async function bodyOf(req: IncomingMessage): Promise<Buffer | ReadableStream<Uint8Array> | undefined> {
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  const length = Number(req.headers["content-length"] ?? Number.NaN);
  if (!(length <= READ_WHOLE_BYTES)) return Readable.toWeb(req) as ReadableStream<Uint8Array>;
  const timer = setTimeout(() => req.destroy(), READ_WHOLE_WITHIN_MS);
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  } finally {
    clearTimeout(timer);
  }
}

async function serveLean(handler: NonNullable<ReturnType<typeof leanRoute>>, req: IncomingMessage, res: ServerResponse, headersFor: [string, string][]): Promise<void> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const body = await bodyOf(req);
  // This server's own origin, as Next.js's is (its hostname and port): the client's Host header in
  // the URL would put the client's text in its path (`Host: x/anything?`), which labels, access
  // lines and span names are derived from. req.url starts with the route's own path (leanRoute matched it).
  const request = new Request(`${ORIGIN}${req.url}`, {
    method: req.method,
    headers,
    body,
    duplex: "half",
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve({}) });
  const answer = Buffer.from(await response.arrayBuffer());
  // The route closes the connection after an answer that left the body unread (a 401, a 429), so
  // the server does not drain it; a body read whole is off the socket already.
  const drained = Buffer.isBuffer(body);
  for (const [name, value] of headersFor) res.setHeader(name, value);
  for (const [name, value] of response.headers) if (name !== "set-cookie" && !(drained && name === "connection")) res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  res.statusCode = response.status;
  res.end(answer);
}

async function main(): Promise<void> {
  const dir = process.cwd();
  const { default: next } = await import("next");
  const app = next({ dev: false, dir, hostname: hostname ?? "localhost", port });
  const headersFor = configHeaders(dir);

  const server = createServer((req, res) => {
    const pathname = req.url?.split("?", 1)[0] ?? "/";
    const lean = leanRoute(req.method ?? "GET", pathname);
    const extra = lean ? headersFor(pathname) : null;
    if (lean && extra) {
      serveLean(lean, req, res, extra).catch((error: unknown) => {
        // The client went away, or was cut off for not sending its body: nobody to answer.
        if (req.destroyed) return;
        // The handler answers every error itself (problem+json); this is the transport failing.
        console.error("lean route failed", error instanceof Error ? error.message : String(error));
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end();
      });
      return;
    }
    void next_.handle(req, res);
  });
  // Next.js's own handler, once prepared (the server listens only then).
  const next_ = { handle: (_req: IncomingMessage, _res: ServerResponse): Promise<void> => Promise.reject(new Error("not prepared")) };

  // As next start does on SIGTERM/SIGINT: stop taking connections, finish what is in flight, exit.
  // Installed before Next.js prepares, so instrumentation.ts's shutdown delay runs it after the delay.
  let closing = false;
  const close = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    server.close(() => process.exit(signal === "SIGINT" ? 130 : 143));
    server.closeIdleConnections();
  };
  process.on("SIGTERM", close);
  process.on("SIGINT", close);

  await app.prepare();
  next_.handle = app.getRequestHandler() as typeof next_.handle;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => resolve());
  });
  console.log(`▲ Webhook Admin web server on http://${hostname ?? "localhost"}:${port} (Next.js, with lean routes)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
