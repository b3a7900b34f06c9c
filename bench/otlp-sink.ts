import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local OTLP/HTTP collector for part h: takes the worker's POST /v1/traces (JSON), counts the
 * spans and bytes, and answers 200 at once — the exporter's whole cost, without a real collector's.
 */
export async function startOtlpSink() {
  let requests = 0;
  let bytes = 0;
  let spans = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      requests += 1;
      bytes += body.length;
      try {
        const request = JSON.parse(body.toString("utf8")) as { resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[] };
        for (const resource of request.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) spans += scope.spans?.length ?? 0;
      } catch {
        // Not JSON (another protocol): counted as a request only.
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => ({ requests, bytes, spans }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
