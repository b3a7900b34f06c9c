/**
 * The web process's metrics, all in one place, served by GET /api/metrics (METRICS_TOKEN). Held on
 * globalThis: Next.js may evaluate this module once per route bundle, and every route must count
 * into the same series.
 */
import type { Counter, Histogram, Registry } from "prom-client";
import { createRegistry, seriesIn } from "./registry";

type WebMetrics = {
  registry: Registry;
  requests: Counter<"route" | "method" | "status">;
  duration: Histogram<"route" | "method">;
  ingested: Counter;
  authFailures: Counter;
};

function create(): WebMetrics {
  const registry = createRegistry();
  const { counter, histogram } = seriesIn(registry);
  return {
    registry,
    requests: counter(
      "http_requests_total",
      "REST API requests answered, by route template (/api/v1/messages/[id]), method and status.",
      ["route", "method", "status"],
    ),
    duration: histogram(
      "http_request_duration_seconds",
      "REST API request duration, from the wrapper's start to its answer, by route template and method.",
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      ["route", "method"],
    ),
    ingested: counter("messages_ingested_total", "Messages accepted by ingest (an idempotent replay is not counted again)."),
    authFailures: counter("auth_failures_total", "Requests refused for a missing, unknown or revoked API key or portal session."),
  };
}

const holder = globalThis as unknown as { __webhookAdminWebMetrics?: WebMetrics };
function metrics(): WebMetrics {
  return (holder.__webhookAdminWebMetrics ??= create());
}

/**
 * One answered API request. `route` is the route's declared template as its folder under app/
 * spells it (`/api/v1/consumers/[consumer]/endpoints`, lib/http/route-templates.ts), never text from
 * the request: a path would make a series per id.
 */
export function recordHttpRequest(input: { route: string; method: string; status: number; durationMs: number }): void {
  const m = metrics();
  const method = input.method.toUpperCase();
  m.requests.labels(input.route, method, String(input.status)).inc();
  m.duration.labels(input.route, method).observe(Math.max(0, input.durationMs) / 1000);
}

/** One request refused for its credential (401 unauthorized, or 429 over the failed-auth limit). */
export function recordAuthFailure(): void {
  metrics().authFailures.inc();
}

/** `n` messages accepted by ingest. */
export function recordMessagesIngested(n: number): void {
  if (n > 0) metrics().ingested.inc(n);
}

/** The web process's exposition: its content type and text. */
export async function renderWebMetrics(): Promise<{ contentType: string; text: string }> {
  const { registry } = metrics();
  return { contentType: registry.contentType, text: await registry.metrics() };
}
