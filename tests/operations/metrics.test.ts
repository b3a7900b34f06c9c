import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { raiseAlerts } from "../../lib/jobs/raise-alert";
import { apiClient, call, type Api } from "../helpers/api";
import { createConsumer, createEndpoint, sendMessage, sendMessages } from "../helpers/fixtures";
import { promtoolCheckMetrics, promtoolPath, readExposition, valueOf } from "../helpers/prometheus";
import { startReceiver, waitFor } from "../helpers/receiver";
import { spawnWorker } from "../helpers/worker-process";

/**
 * Both processes' Prometheus series, scraped for real: a worker process delivering to real
 * receivers and sending alerts, and the web app's GET /api/metrics. Each exposition goes through
 * promtool, and every series docs/operating.md names must be in one of them.
 */
process.env.DELIVERY_SCHEDULE = "0,100ms";
process.env.ALERT_RETRY_SCHEDULE = "0";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";
const TOKEN = "metrics-token-0123456789abcdef";

const promtool = promtoolPath();
let api: Api;
let worker: Awaited<ReturnType<typeof spawnWorker>>;
let metricsUrl: string;
let ok: Awaited<ReturnType<typeof startReceiver>>;
let failing: Awaited<ReturnType<typeof startReceiver>>;
let slack: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  [ok, failing, slack] = await Promise.all([
    startReceiver((_req, res) => res.writeHead(200).end()),
    startReceiver((_req, res) => res.writeHead(500).end()),
    startReceiver((_req, res) => res.writeHead(200).end("ok")),
  ]);
  process.env.SLACK_API_BASE = slack.url;
  process.env.METRICS_TOKEN = TOKEN;
  resetConfigForTests();
  api = await apiClient();
  worker = await spawnWorker();
  const started = worker.output().split("\n").find((line) => line.includes('"worker started"'))!;
  metricsUrl = JSON.parse(started).metrics;
});

afterAll(async () => {
  await worker?.kill();
  await Promise.all([ok, failing, slack].map((r) => r?.close()));
  delete process.env.METRICS_TOKEN;
  resetConfigForTests();
});

async function scrapeWorker() {
  const res = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return res.text();
}

function check(text: string) {
  if (!promtool) return;
  const result = promtoolCheckMetrics(promtool, text);
  expect(result.status === 0 || result.status === 3, result.problems.join("\n")).toBe(true);
  expect(result.problems).toEqual([]);
}

/** Every `webhook_admin_…` name in the metrics section of docs/operating.md. */
function documentedSeries(): string[] {
  const doc = readFileSync("docs/operating.md", "utf8");
  const start = doc.indexOf("\n## Metrics\n");
  expect(start, "docs/operating.md has a ## Metrics section").toBeGreaterThan(0);
  const rest = doc.slice(start + 1);
  const section = rest.slice(0, rest.search(/\n## /));
  return [...new Set([...section.matchAll(/`(webhook_admin_[a-z0-9_]+)/g)].map((m) => m[1]!))];
}

describe("the worker's /metrics", () => {
  it("takes METRICS_TOKEN as the web app's does: 404 without the bearer or with a wrong one; /health stays open", async () => {
    const health = new URL("/health", metricsUrl).href;
    expect((await fetch(metricsUrl)).status).toBe(404);
    expect((await fetch(metricsUrl, { headers: { authorization: "Bearer metrics-token-0123456789abcdeX" } })).status).toBe(404);
    expect((await fetch(metricsUrl, { headers: { authorization: TOKEN } })).status).toBe(404);
    const text = await scrapeWorker();
    expect(text).toContain("webhook_admin_");
    expect((await fetch(health)).status).toBe(200);
  });

  it("counts attempts, claims, lag and alerts, reads the queue and endpoints from the database, and passes promtool", async () => {
    await createConsumer(api, { uid: "m1", name: "Metrics" });
    await createEndpoint(api, "m1", `${ok.url}/ok`);
    const bad = await createEndpoint(api, "m1", `${failing.url}/fail`);
    await api.post("/api/v1/alert-channels", { kind: "slack", name: "ops", config: { webhook_url: "https://hooks.slack.com/services/T1/B1/metricsmetrics" } });
    await api.post("/api/v1/alert-channels", { kind: "webhook", name: "broken", config: { url: `${failing.url}/alerts` } });
    await sendMessages(api, "m1", 3, "metrics.test");
    // Twice within ALERT_THROTTLE: the second is suppressed for both channels.
    const raise = () => getSql().begin((tx) => raiseAlerts({ sql: tx }, [{ kind: "endpoint.failing", endpointId: bad.id, data: {} }]));
    await raise();
    await waitFor(() => slack.received.length === 1, { timeout: 30_000, what: "the first alert" });
    await raise();

    const text = await waitFor(
      async () => {
        const scraped = await scrapeWorker();
        const { samples } = readExposition(scraped);
        const ready =
          valueOf(samples, "webhook_admin_attempts_total", { result: "success", trigger: "scheduled" }) >= 3 &&
          valueOf(samples, "webhook_admin_attempts_total", { result: "failure" }) >= 6 &&
          valueOf(samples, "webhook_admin_alerts_total", { outcome: "sent" }) >= 1 &&
          valueOf(samples, "webhook_admin_alerts_total", { outcome: "failed" }) >= 1 &&
          valueOf(samples, "webhook_admin_alerts_total", { outcome: "suppressed" }) >= 2;
        return ready ? scraped : null;
      },
      { timeout: 30_000, what: "attempts and alerts in the worker's metrics", onTimeout: () => console.log(worker.output()) },
    );
    check(text);
    const { families, samples } = readExposition(text);
    expect(families.get("webhook_admin_attempts_total")).toBe("counter");
    expect(families.get("webhook_admin_attempt_duration_seconds")).toBe("histogram");
    expect(valueOf(samples, "webhook_admin_attempt_duration_seconds_count")).toBeGreaterThanOrEqual(9);
    // One first attempt per delivery (3 messages × 2 endpoints); retries are not first attempts.
    expect(valueOf(samples, "webhook_admin_first_attempt_lag_seconds_count")).toBe(6);
    expect(valueOf(samples, "webhook_admin_claim_batch_size_count")).toBeGreaterThan(0);
    expect(valueOf(samples, "webhook_admin_claim_batch_size_sum")).toBeGreaterThanOrEqual(9);
    expect(valueOf(samples, "webhook_admin_claim_duration_seconds_count")).toBeGreaterThan(0);
    expect(valueOf(samples, "webhook_admin_endpoints", { state: "active" })).toBe(2);
    expect(valueOf(samples, "webhook_admin_endpoints_failing")).toBe(1);
    expect(valueOf(samples, "webhook_admin_database_up")).toBe(1);
    for (const kind of ["scheduled", "manual", "recovery"]) {
      for (const state of ["due", "parked", "later", "leased"]) {
        expect(samples.some((s) => s.name === "webhook_admin_queue_deliveries" && s.labels.kind === kind && s.labels.state === state)).toBe(true);
      }
    }
    expect(families.has("webhook_admin_process_cpu_seconds_total")).toBe(true);
    expect(families.has("webhook_admin_nodejs_eventloop_lag_seconds")).toBe(true);
    expect(families.has("webhook_admin_nodejs_gc_duration_seconds")).toBe(true);
  });

  it("reports a backlog: due rows by kind and how long the oldest has waited", async () => {
    // Rows made due a minute ago on an endpoint whose circuit is open wait where the claim leaves them.
    await createConsumer(api, { uid: "m2", name: "Backlog" });
    const ep = await createEndpoint(api, "m2", `${ok.url}/later`);
    await getSql()`update endpoints set circuit_open_until = now() + interval '1 hour' where id = ${ep.id}`;
    await sendMessage(api, "m2", { event_type: "metrics.test", payload: {} });
    // The worker's claim (woken by the ingest) parks it behind the circuit first; made due after
    // that, nothing wakes a claim before the scrape.
    await waitFor(async () => (await getSql()`select 1 from delivery_queue where endpoint_id = ${ep.id} and parked`).length === 1, { what: "the claim to park the row" });
    await getSql()`update delivery_queue set next_attempt_at = now() - interval '60 seconds', parked = false where endpoint_id = ${ep.id}`;
    const { samples } = readExposition(await scrapeWorker());
    expect(valueOf(samples, "webhook_admin_queue_deliveries", { kind: "scheduled", state: "due" })).toBe(1);
    expect(valueOf(samples, "webhook_admin_queue_oldest_due_age_seconds", { kind: "scheduled" })).toBeGreaterThanOrEqual(59);
    // Per consumer: who waits (the consumer whose row is due a minute back), and who took the attempts so far.
    expect(valueOf(samples, "webhook_admin_consumer_oldest_due_age_seconds", { consumer: "m2" })).toBeGreaterThanOrEqual(59);
    expect(valueOf(samples, "webhook_admin_consumer_due_deliveries", { consumer: "m2" })).toBe(1);
    const shares = samples.filter((s) => s.name === "webhook_admin_consumer_attempts_share").map((s) => s.value);
    expect(shares.length).toBeGreaterThan(0);
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    expect(valueOf(samples, "webhook_admin_circuits_open")).toBe(1);
    await getSql()`update endpoints set circuit_open_until = null where id = ${ep.id}`;
  });

  it("answers /health 200 with its database, as JSON", async () => {
    const res = await fetch(metricsUrl.replace(/\/metrics$/, "/health"));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", database: { ok: true } });
  });
});

describe("the web app's GET /api/metrics", () => {
  it("is 404 without METRICS_TOKEN, without the bearer, and with a wrong one", async () => {
    expect((await call("GET", "/api/metrics", { key: TOKEN })).status).toBe(200);
    expect((await call("GET", "/api/metrics")).status).toBe(404);
    expect((await call("GET", "/api/metrics", { key: "metrics-token-0123456789abcdeX" })).status).toBe(404);
    expect((await call("GET", "/api/metrics", { headers: { authorization: `Basic ${TOKEN}` } })).status).toBe(404);
    delete process.env.METRICS_TOKEN;
    resetConfigForTests();
    try {
      expect((await call("GET", "/api/metrics", { key: TOKEN })).status).toBe(404);
    } finally {
      process.env.METRICS_TOKEN = TOKEN;
      resetConfigForTests();
    }
  });

  it("serves requests by route template, ingested messages and auth failures, and passes promtool", async () => {
    // Real requests through the API's wrapper: two reads of one message route, one unknown key.
    const before = readExposition((await call("GET", "/api/metrics", { key: TOKEN })).text).samples;
    const count = (samples: typeof before, labels: Record<string, string>) => valueOf(samples, "webhook_admin_http_requests_total", labels) ?? 0;
    await createConsumer(api, { uid: "metered", name: "Metered" });
    const sent = await sendMessage(api, "metered", { event_type: "metrics.test", payload: {} });
    expect((await api.get(`/api/v1/messages/${sent.id}`)).status).toBe(200);
    expect((await api.get("/api/v1/messages/msg_unknown")).status).toBe(404);
    expect((await call("GET", "/api/v1/consumers", { key: "sk_not_a_key" })).status).toBe(401);
    const res = await call("GET", "/api/metrics", { key: TOKEN });
    expect(res.headers.get("content-type")).toContain("text/plain");
    check(res.text);
    const { families, samples } = readExposition(res.text);
    // By template, never by the concrete path (one series per message id would grow without end).
    expect(count(samples, { route: "/api/v1/messages/[id]", method: "GET", status: "200" }) - count(before, { route: "/api/v1/messages/[id]", method: "GET", status: "200" })).toBe(1);
    expect(count(samples, { route: "/api/v1/messages/[id]", method: "GET", status: "404" }) - count(before, { route: "/api/v1/messages/[id]", method: "GET", status: "404" })).toBe(1);
    expect(res.text).not.toContain(sent.id);
    expect(valueOf(samples, "webhook_admin_http_request_duration_seconds_count", { route: "/api/v1/messages/[id]", method: "GET" })).toBeGreaterThanOrEqual(2);
    // This file's ingests ran in this process, through createMessage.
    expect(valueOf(samples, "webhook_admin_messages_ingested_total")).toBeGreaterThanOrEqual(4);
    expect(valueOf(samples, "webhook_admin_auth_failures_total")).toBeGreaterThanOrEqual(1);
    expect(families.has("webhook_admin_process_resident_memory_bytes")).toBe(true);
  });
});

describe("the list of series in docs/operating.md", () => {
  it("names only series that one of the two processes exposes", async () => {
    if (!promtool) console.warn("promtool is not installed (apt-get install prometheus): expositions were checked by this file's reader only");
    const worker = readExposition(await scrapeWorker()).families;
    const web = readExposition((await call("GET", "/api/metrics", { key: TOKEN })).text).families;
    const named = documentedSeries();
    expect(named.length).toBeGreaterThan(20);
    const missing = named.filter((series) => !worker.has(series) && !web.has(series));
    expect(missing).toEqual([]);
    // The alerting rules and the Grafana dashboard are built on those series only.
    const family = (sample: string) => sample.replace(/_(bucket|sum|count)$/, "");
    for (const file of ["deploy/prometheus/alerts.yml", "deploy/grafana/webhook-admin.json"]) {
      const used = [...new Set([...readFileSync(file, "utf8").matchAll(/\b(webhook_admin_[a-z0-9_]+)/g)].map((m) => m[1]!))];
      expect(used.length).toBeGreaterThan(5);
      const unknown = used.filter((series) => ![series, family(series)].some((name) => worker.has(name) || web.has(name)));
      expect(unknown, file).toEqual([]);
    }
    expect(JSON.parse(readFileSync("deploy/grafana/webhook-admin.json", "utf8")).panels.length).toBeGreaterThan(10);
  });
});
