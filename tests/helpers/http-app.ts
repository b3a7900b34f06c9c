import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { handle } from "./api";

/**
 * The app's route handlers (app/api) served over real HTTP on 127.0.0.1, in this process and
 * routed as Next.js routes them (tests/helpers/api.ts), for clients that must talk HTTP themselves
 * (the svix SDKs): no build, the test file's own database and config.
 */
export async function startHttpApp() {
  const server = createServer(async (req: IncomingMessage, res) => {
    try {
      const url = `http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`;
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
      }
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(url, {
        method: req.method,
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
        duplex: "half",
      } as RequestInit);
      const response = await handle(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      // A route missing from app/api (Next.js would answer its HTML 404): plain text, so a test sees it.
      res.writeHead(599, { "content-type": "text/plain" }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
