/**
 * OpenTelemetry traces, off unless the standard environment asks for them: OTEL_EXPORTER_OTLP_ENDPOINT
 * (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) set, OTEL_SDK_DISABLED not `true`, OTEL_TRACES_EXPORTER not
 * `none`. Spans go out as OTLP/HTTP JSON in batches (OTEL_BSP_*); the SDK reads the rest of the
 * standard variables itself (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS,
 * OTEL_TRACES_SAMPLER…). Off, nothing here makes a span object, and the SDK is never even loaded.
 * A collector that is down or slow costs dropped spans and a warning a minute, never a crash.
 *
 * What a span never carries: payloads, headers, endpoint URLs, tokens, response bodies, error
 * messages (an error is its type or code only).
 */
import {
  context,
  diag,
  DiagLogLevel,
  isSpanContextValid,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type SpanOptions,
} from "@opentelemetry/api";
import { setTimeout as sleep } from "node:timers/promises";
import { logger } from "../logger";
import { VERSION } from "../version";

type Provider = { forceFlush(): Promise<void>; shutdown(): Promise<void> };
type State = { on: boolean; provider: Provider | null; starting: Promise<boolean> | null };

// On globalThis: Next.js may evaluate this module once per route bundle; every bundle must see the
// one provider instrumentation.ts started.
const holder = globalThis as unknown as { __webhookAdminTracing?: State };
const state = (holder.__webhookAdminTracing ??= { on: false, provider: null, starting: null });

export const TRACER_NAME = "webhook-admin";

/** Whether spans are being made in this process. Checked before any span work, so off costs a branch. */
export function tracingOn(): boolean {
  return state.on;
}

const traceEndpoint = (env: NodeJS.ProcessEnv) => env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || "";

/** Whether the standard OpenTelemetry variables ask for traces. */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "").split(",").map((name) => name.trim().toLowerCase());
  if (exporters.includes("none")) return false;
  return traceEndpoint(env) !== "";
}

// The SDK's own complaints (an export that failed: the collector down, slow, refusing), at most one
// line a minute, with how many were left out.
const DIAG_EVERY_MS = 60_000;
function diagToLog() {
  let last = 0;
  let quiet = 0;
  const say = (message: string, ...args: unknown[]) => {
    const now = Date.now();
    if (now - last < DIAG_EVERY_MS) {
      quiet += 1;
      return;
    }
    last = now;
    const detail = args.map((arg) => (arg instanceof Error ? arg.message : typeof arg === "string" ? arg : "")).filter(Boolean).join(" ");
    logger.warn("tracing: spans not exported", { detail: `${message} ${detail}`.trim().slice(0, 500), left_out: quiet });
    quiet = 0;
  };
  return { error: say, warn: say, info: () => {}, debug: () => {}, verbose: () => {} };
}

/**
 * Starts tracing for this process (`web` or `worker`: the default service.name is
 * webhook-admin-web or webhook-admin-worker) when tracingRequested(); resolves whether it is on.
 * Never throws: an SDK that fails to start leaves the process running without traces.
 */
export function startTracing(processName: "web" | "worker"): Promise<boolean> {
  if (state.on) return Promise.resolve(true);
  if (!tracingRequested()) return Promise.resolve(false);
  return (state.starting ??= (async () => {
    try {
      const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { defaultResource, detectResources, envDetector, resourceFromAttributes }] =
        await Promise.all([import("@opentelemetry/sdk-trace-node"), import("@opentelemetry/exporter-trace-otlp-http"), import("@opentelemetry/resources")]);
      const protocol = process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
      if (protocol && protocol !== "http/json") logger.warn("tracing: only OTLP/HTTP JSON is sent; OTEL_EXPORTER_OTLP_PROTOCOL is ignored", { protocol });
      const resource = defaultResource()
        .merge(resourceFromAttributes({ "service.name": `webhook-admin-${processName}`, "service.version": VERSION }))
        // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win.
        .merge(detectResources({ detectors: [envDetector] }));
      const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
      diag.setLogger(diagToLog(), { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
      // The AsyncLocalStorage context manager and the W3C trace-context propagator.
      provider.register();
      state.provider = provider;
      state.on = true;
      logger.info("tracing on", { endpoint: traceEndpoint(process.env), service: resource.attributes["service.name"] });
      return true;
    } catch (error) {
      logger.warn("tracing could not start; running without it", { error: String(error) });
      return false;
    } finally {
      state.starting = null;
    }
  })());
}

// A flush or shutdown bounded in time: a collector that never answers must not hold a stopping process.
const within = <T>(promise: Promise<T>, ms: number) => Promise.race([promise.catch(() => undefined), sleep(ms, undefined, { ref: false })]);

/** Exports the spans ended so far (waiting at most `timeoutMs`); nothing when tracing is off. */
export async function flushTracing(timeoutMs = 5_000): Promise<void> {
  if (state.provider) await within(state.provider.forceFlush(), timeoutMs);
}

/** Exports what is left and stops making spans (a stopping process; tests). */
export async function stopTracing(timeoutMs = 5_000): Promise<void> {
  const provider = state.provider;
  state.on = false;
  state.provider = null;
  if (!provider) return;
  await within(provider.shutdown(), timeoutMs);
  trace.disable();
  context.disable();
  propagation.disable();
  diag.disable();
}

const tracer = () => trace.getTracer(TRACER_NAME, VERSION);

/** Marks a span failed by the error's type or code, never its message (which may quote data). */
export function failSpan(span: Span, error: unknown): void {
  const type = (error as { code?: unknown } | null)?.code ?? (error instanceof Error ? error.name : typeof error);
  span.setAttribute("error.type", String(type));
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * `fn` inside an active span `name` (a child of whatever span is active, or of `parent`) when
 * tracing is on; just `fn` when off — no span object at all.
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span | undefined) => Promise<T>, parent?: Context): Promise<T> {
  if (!state.on) return fn(undefined);
  return tracer().startActiveSpan(name, options, parent ?? context.active(), async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A span started (not made active) under `parent`; the caller ends it. Only call while tracingOn(). */
export function startSpan(name: string, options: SpanOptions, parent: Context): Span {
  return tracer().startSpan(name, options, parent);
}

/** The context `span` is the active span of, under the active context. */
export function contextWith(span: Span): Context {
  return trace.setSpan(context.active(), span);
}

/**
 * The active span as a W3C `traceparent` (00-traceid-spanid-flags), to be stored with work another
 * process picks up; null when tracing is off or the span is not sampled (no one would find it).
 */
export function activeTraceparent(): string | null {
  if (!state.on) return null;
  const span = trace.getActiveSpan()?.spanContext();
  if (!span || !isSpanContextValid(span) || !(span.traceFlags & TraceFlags.SAMPLED)) return null;
  return `00-${span.traceId}-${span.spanId}-01`;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A Link to the span a stored `traceparent` names, or null for none or a malformed one. */
export function linkTo(traceparent: string | null | undefined): Link | null {
  const match = traceparent ? TRACEPARENT.exec(traceparent) : null;
  if (!match) return null;
  const spanContext: SpanContext = { traceId: match[1]!, spanId: match[2]!, traceFlags: parseInt(match[3]!, 16), isRemote: true };
  return isSpanContextValid(spanContext) ? { context: spanContext } : null;
}

const headerGetter = {
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
  keys: (headers: Headers) => [...headers.keys()],
};

/**
 * An HTTP request's span, `{METHOD} {route template}`, around `fn` when tracing is on: the server
 * span (continuing a caller's `traceparent`) when nothing else made one, else a child of the span
 * the server (Next.js) made.
 */
export function inRequestSpan<T>(req: Request, route: string, attributes: Attributes, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!state.on) return fn(undefined);
  const nested = trace.getActiveSpan() !== undefined;
  const parent = nested ? context.active() : propagation.extract(context.active(), req.headers, headerGetter);
  const options: SpanOptions = {
    kind: nested ? SpanKind.INTERNAL : SpanKind.SERVER,
    attributes: { "http.request.method": req.method, "http.route": route, ...attributes },
  };
  return inSpan(`${req.method} ${route}`, options, fn, parent);
}

export { SpanKind, type Context, type Link, type Span, type SpanContext };
