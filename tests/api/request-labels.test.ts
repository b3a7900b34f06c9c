import { randomBytes } from "node:crypto";
import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../lib/api-keys";
import { systemCtx } from "../../lib/open-ctx";
import { startProductionWeb } from "../helpers/built-app";
import { startOtlpReceiver } from "../helpers/otlp";
import { readExposition, valueOf } from "../helpers/prometheus";
import { waitFor } from "../helpers/receiver";
import { apiRoutes } from "../helpers/routes";

/**
 * What an anonymous client sends never becomes a label, a log field or a span name: the production
 * web server (npm run web: the lean route and Next.js's routing) gets thousands of unauthenticated
 * requests with random Host headers, random paths under /api/v1 and ids whose %2F splits them into
 * more segments than their route has, and the number of request series /api/metrics exposes stays
 * that of a warm baseline; access lines and spans name only the routes' declared templates.
 */
const TOKEN = "metrics-token-labels-0123456789";
// Every random piece a request carries starts with this, so it can be looked for anywhere.
const MARKER = `zq${randomBytes(3).toString("hex")}`;
const REQUESTS = 3000;

// The templates these requests may be labelled with: the /api routes' folders. Each request here
// reaches one of them, so none is `unmatched` either.
const TEMPLATES = new Set([...apiRoutes().map((route) => `/api/v1${route.folder}`), "/api/health", "/api/health/ready", "/api/metrics"]);

let web: Awaited<ReturnType<typeof startProductionWeb>>;
let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
let key: string;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

const random = () => `${MARKER}${randomBytes(6).toString("hex")}`;

/** One request, sent as written (its Host header too), answered with its status. */
function send(method: string, path: string, host: string, headers: Record<string, string> = {}, body?: string): Promise<number> {
  const { port } = new URL(web.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, agent, setHost: false, headers: { host, ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

// What an anonymous client can send, each answered 401 before any credential is looked up.
const hostile: (() => Promise<number>)[] = [
  // The lean route (POST /api/v1/messages, served without Next.js's routing): a Host that ends the
  // URL's authority and starts a path of its own.
  () => send("POST", "/api/v1/messages", `x/${random()}?`, { "content-type": "application/json" }, "{}"),
  // Next.js's routing with such a Host.
  () => send("GET", "/api/v1/consumers", `${random()}.example/${random()}?`),
  // An id whose %2F splits it into more segments than its route has.
  () => send("GET", `/api/v1/messages/${Array.from({ length: 6 }, random).join("%2F")}`, "localhost"),
  () => send("GET", `/api/v1/messages/${Array.from({ length: 3 }, random).join("%2F")}/attempts`, "localhost"),
  // The Svix surface, the same way.
  () => send("GET", `/api/v1/app/${Array.from({ length: 5 }, random).join("%2F")}/msg/${random()}%2F${random()}`, "localhost"),
  // Random paths under /api/v1 (the catch-all).
  () => send("GET", `/api/v1/${random()}/${random()}%2F${random()}`, "localhost"),
];

async function scrape(): Promise<{ series: number; routes: Set<string>; leanRefused: number }> {
  const res = await fetch(`${web.url}/api/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  const samples = readExposition(await res.text()).samples.filter((s) => s.name.startsWith("webhook_admin_http_request"));
  return {
    series: samples.length,
    routes: new Set(samples.map((s) => s.labels.route!)),
    leanRefused: valueOf(samples, "webhook_admin_http_requests_total", { route: "/api/v1/messages", method: "POST", status: "401" }),
  };
}

beforeAll(async () => {
  ({ key } = await createApiKey({ ctx: systemCtx(), input: { name: "labels" } }));
  otlp = await startOtlpReceiver();
  web = await startProductionWeb({
    LOG_LEVEL: "info",
    METRICS_TOKEN: TOKEN,
    MIGRATE_ON_START: "false",
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_BSP_SCHEDULE_DELAY: "50",
  });
}, 600_000);

afterAll(async () => {
  agent.destroy();
  await web?.stop();
  await otlp?.close();
});

describe("request labels, log fields and span names", () => {
  it("stay the routes' declared templates, however many hostile requests arrive", async () => {
    // Next.js loads the lean route's module on its first request; the web server serves the rest.
    const loaded = await fetch(`${web.url}/api/v1/messages`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: "{" });
    expect(loaded.status).toBe(400);
    // A warm baseline: each kind of request once.
    for (const kind of hostile) expect(await kind()).toBe(401);
    const baseline = await scrape();

    let next = 0;
    const statuses = new Set<number>();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < REQUESTS) statuses.add(await hostile[next++ % hostile.length]!());
      }),
    );
    expect([...statuses]).toEqual([401]);

    const after = await scrape();
    expect([...after.routes].filter((route) => !TEMPLATES.has(route))).toEqual([]);
    expect(after.series).toBe(baseline.series);
    // The lean route's requests are counted under its own template, whatever their Host said.
    expect(after.leanRefused - baseline.leanRefused).toBe(Math.ceil(REQUESTS / hostile.length));

    // Every access line names a template, and no client text reaches the log.
    const requests = REQUESTS + hostile.length;
    const accessLines = () =>
      web
        .output()
        .split("\n")
        .filter((line) => line.includes('"msg":"request"'))
        .map((line) => JSON.parse(line) as { route: string; status: number });
    await waitFor(() => accessLines().filter((line) => line.status === 401).length >= requests, { what: "the access lines" });
    expect([...new Set(accessLines().map((line) => line.route))].filter((route) => !TEMPLATES.has(route))).toEqual([]);
    expect(web.output()).not.toContain(MARKER);

    // Every request's span is named `METHOD template`.
    const served = () => otlp.spans.filter((span) => span.attributes["http.route"] !== undefined && span.attributes["webhook_admin.request_id"] !== undefined);
    await waitFor(() => served().length >= requests, { what: "the requests' spans" });
    const names = new Set(otlp.spans.map((span) => span.name));
    expect([...names].filter((name) => name.includes(MARKER))).toEqual([]);
    expect([...new Set(served().map((span) => span.name.replace(/^[A-Z]+ /, "")))].filter((route) => !TEMPLATES.has(route))).toEqual([]);
  }, 300_000);
});
