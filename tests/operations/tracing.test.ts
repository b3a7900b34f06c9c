import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { flushTracing, startTracing, stopTracing, tracingOn } from "../../lib/telemetry/tracing";
import { apiClient } from "../helpers/api";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { startOtlpReceiver, type ExportedSpan } from "../helpers/otlp";
import { startReceiver, waitFor } from "../helpers/receiver";
import { spawnWorker } from "../helpers/worker-process";

/**
 * OpenTelemetry traces for real: the web app's route handlers in this process and a real worker
 * process both export OTLP/HTTP JSON to a tiny collector on 127.0.0.1, which decodes what they send.
 * A message's trace: the HTTP span and its `ingest` child here; the worker's claim, each attempt (a
 * child of its claim, linked to the ingest span through the traceparent the message keeps) and the
 * outcome writes (linked to the attempts); a recovery's ticks and its attempts (linked to the same
 * ingest span). Nothing of the payload, the endpoint's URL or the API key is in what is exported.
 */
// One scheduled attempt: the failing endpoint's delivery is failed at once, ready to recover.
process.env.DELIVERY_SCHEDULE = "0";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";
process.env.RECOVERY_TICK = "50ms";
process.env.RECOVERY_RAMP_EVERY = "1ms";

const MARKER = `payload-marker-${randomBytes(6).toString("hex")}`;
const SPAN_KIND = { internal: 1, server: 2, client: 3 };

let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
let webhooks: Awaited<ReturnType<typeof startReceiver>>;
let worker: Awaited<ReturnType<typeof spawnWorker>> | undefined;
let flakyAnswers = 500;

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  webhooks = await startReceiver((req, res) => res.writeHead(req.url?.startsWith("/flaky") ? flakyAnswers : 200).end());
  // The standard variables, for this process and the worker it starts; spans go out every 50 ms.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = otlp.url;
  process.env.OTEL_BSP_SCHEDULE_DELAY = "50";
});

afterAll(async () => {
  await worker?.kill();
  await stopTracing();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_BSP_SCHEDULE_DELAY;
  delete process.env.OTEL_EXPORTER_OTLP_TIMEOUT;
  await Promise.all([otlp?.close(), webhooks?.close()]);
});

const spansNamed = (name: string, service?: string) => otlp.spans.filter((s) => s.name === name && (!service || s.service === service));
const isLinkedTo = (span: ExportedSpan, to: ExportedSpan) => span.links.some((l) => l.traceId === to.traceId && l.spanId === to.spanId);

describe("traces", () => {
  it("follow a message from its POST through ingest, the worker's claim, attempts and outcome writes, and a recovery, without its payload", async () => {
    expect(await startTracing("web")).toBe(true);
    expect(tracingOn()).toBe(true);
    const api = await apiClient();
    await createConsumer(api, { uid: "traced", name: "Traced" });
    const ok = await createEndpoint(api, "traced", `${webhooks.url}/ok`);
    const flaky = await createEndpoint(api, "traced", `${webhooks.url}/flaky`);
    worker = await spawnWorker();
    expect(worker.output()).toContain('"msg":"tracing on"');

    const sent = await sendMessage(api, "traced", { event_type: "trace.test", payload: { marker: MARKER } });
    await waitFor(() => webhooks.received.length >= 2, { timeout: 30_000, what: "both attempts", onTimeout: () => console.log(worker!.output()) });
    await flushTracing();

    // Here: the request's span and its ingest child.
    const http = await waitFor(() => spansNamed("POST /api/v1/messages", "webhook-admin-web")[0], { what: "the HTTP span" });
    expect(http.kind).toBe(SPAN_KIND.server);
    expect(http.attributes).toMatchObject({ "http.request.method": "POST", "http.route": "/api/v1/messages", "http.response.status_code": 202, "webhook_admin.actor_type": "api_key" });
    expect(http.attributes["webhook_admin.request_id"]).toEqual(expect.any(String));
    const ingest = spansNamed("ingest", "webhook-admin-web").find((s) => s.parentSpanId === http.spanId)!;
    expect(ingest, "the ingest span, a child of the HTTP span").toBeDefined();
    expect(ingest.traceId).toBe(http.traceId);
    expect(ingest.attributes).toMatchObject({ "webhook_admin.messages": 1, "webhook_admin.deliveries": 2 });
    const [stored] = await getSql()<{ traceparent: string }[]>`select traceparent from messages where id = ${sent.id}`;
    expect(stored!.traceparent).toBe(`00-${ingest.traceId}-${ingest.spanId}-01`);

    // The worker: one attempt span per endpoint, under a claim, linked to the ingest span.
    const attempts = await waitFor(
      () => {
        const found = spansNamed("delivery.attempt", "webhook-admin-worker").filter((s) => s.attributes["webhook_admin.message_id"] === sent.id);
        return found.length === 2 ? found : null;
      },
      { timeout: 30_000, what: "the worker's attempt spans", onTimeout: () => console.log(worker!.output()) },
    );
    const attemptTo = (endpointId: string) => attempts.find((s) => s.attributes["webhook_admin.endpoint_id"] === endpointId)!;
    const good = attemptTo(ok.id);
    const bad = attemptTo(flaky.id);
    expect(good.kind).toBe(SPAN_KIND.client);
    expect(good.attributes).toMatchObject({ "http.response.status_code": 200, "webhook_admin.attempt.success": true, "webhook_admin.attempt.trigger": "scheduled", "webhook_admin.attempt.number": 1 });
    expect(good.attributes["webhook_admin.delivery_id"]).toMatch(/^dlv_/);
    expect(bad.attributes).toMatchObject({ "http.response.status_code": 500, "webhook_admin.attempt.success": false });
    expect(bad.status.code, "a failed attempt's span is an error").toBe(2);
    for (const attempt of [good, bad]) {
      expect(isLinkedTo(attempt, ingest), "the attempt links to the ingest span").toBe(true);
      const claim = spansNamed("delivery.claim", "webhook-admin-worker").find((s) => s.spanId === attempt.parentSpanId);
      expect(claim, "the attempt is a child of its claim").toBeDefined();
      expect(claim!.traceId).toBe(attempt.traceId);
      expect(Number(claim!.attributes["webhook_admin.claimed"])).toBeGreaterThanOrEqual(1);
    }
    // The group commits that wrote them link to them.
    await waitFor(() => [good, bad].every((a) => spansNamed("delivery.outcomes", "webhook-admin-worker").some((o) => isLinkedTo(o, a))), {
      timeout: 15_000,
      what: "outcome spans linked to both attempts",
    });

    // A recovery of the failed delivery: its feeder's ticks, and an attempt linked to the same ingest span.
    flakyAnswers = 200;
    await waitFor(async () => (await getSql()`select 1 from deliveries where endpoint_id = ${flaky.id} and status = 'failed'`).length === 1, { what: "the failed delivery" });
    const recovery = await api.post(`/api/v1/endpoints/${flaky.id}/recover`, { since: new Date(Date.now() - 60_000).toISOString() });
    expect(recovery.status, recovery.text).toBe(202);
    const recovered = await waitFor(
      () => spansNamed("delivery.attempt", "webhook-admin-worker").find((s) => s.attributes["webhook_admin.attempt.trigger"] === "recovery"),
      { timeout: 30_000, what: "the recovery's attempt span", onTimeout: () => console.log(worker!.output()) },
    );
    expect(recovered.attributes).toMatchObject({ "webhook_admin.endpoint_id": flaky.id, "http.response.status_code": 200 });
    expect(isLinkedTo(recovered, ingest)).toBe(true);
    const ticks = await waitFor(() => {
      const found = spansNamed("recovery.tick", "webhook-admin-worker").filter((s) => Number(s.attributes["webhook_admin.recovery.queued"]) > 0);
      return found.length > 0 ? found : null;
    }, { what: "a recovery tick that queued the item" });
    expect(ticks[0]!.attributes["webhook_admin.recovery.active"]).toEqual(expect.any(Boolean));

    // Never the payload, the endpoints' URLs or the API key.
    await flushTracing();
    const exported = otlp.bodies.join("\n");
    expect(exported).not.toContain(MARKER);
    expect(exported).not.toContain(webhooks.url);
    expect(exported).not.toContain(api.key);
    expect(new Set(otlp.spans.map((s) => s.service))).toEqual(new Set(["webhook-admin-web", "webhook-admin-worker"]));
  });

  it("lose spans, never requests, when the collector is down; and off, write no traceparent", async () => {
    await stopTracing();
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${port}`;
    // The exporter's own deadline for an export, retries included.
    process.env.OTEL_EXPORTER_OTLP_TIMEOUT = "1000";
    expect(await startTracing("web")).toBe(true);
    const api = await apiClient();
    const down = await sendMessage(api, "traced", { event_type: "trace.test", payload: {} });
    // The export fails and is given up on; the process goes on.
    await flushTracing();
    await stopTracing();
    delete process.env.OTEL_EXPORTER_OTLP_TIMEOUT;

    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    expect(await startTracing("web")).toBe(false);
    expect(tracingOn()).toBe(false);
    const off = await sendMessage(api, "traced", { event_type: "trace.test", payload: {} });
    const rows = await getSql()<{ id: string; traceparent: string | null }[]>`
      select id, traceparent from messages where id in (${down.id}, ${off.id}) order by id`;
    expect(rows.find((r) => r.id === off.id)!.traceparent).toBeNull();
    expect(rows.find((r) => r.id === down.id)!.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });
});
