import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

/** One exported span, flattened out of its OTLP/HTTP JSON request, with its process's service.name. */
export type ExportedSpan = {
  service: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string }[];
  status: { code?: number };
};

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };
type JsonSpan = {
  name: string;
  kind?: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: KeyValue[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number };
};
type ExportRequest = { resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: JsonSpan[] }[] }[] };

const value = (v: AnyValue): string | number | boolean =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue ?? "";
const attributes = (list: KeyValue[] = []) => Object.fromEntries(list.map((kv) => [kv.key, value(kv.value)]));

/**
 * A tiny OTLP/HTTP collector on 127.0.0.1: takes POST /v1/traces as JSON (gzip or not), answers
 * 200 `{}`, and keeps each request's raw text and its spans.
 */
export async function startOtlpReceiver() {
  const spans: ExportedSpan[] = [];
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") return void res.writeHead(404).end();
      const raw = Buffer.concat(chunks);
      const text = (req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
      bodies.push(text);
      const request = JSON.parse(text) as ExportRequest;
      for (const resource of request.resourceSpans ?? []) {
        const service = String(attributes(resource.resource?.attributes)["service.name"] ?? "");
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              service,
              name: span.name,
              kind: span.kind ?? 0,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? "",
              attributes: attributes(span.attributes),
              links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
              status: span.status ?? {},
            });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    /** Every export request's JSON text, as sent. */
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
