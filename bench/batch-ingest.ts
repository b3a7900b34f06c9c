import { runConcurrently, type Api } from "./api";
import { every, int, summarize, type Summary } from "./stats";

export type BatchIngestResult = {
  calls: number;
  /** Messages answered 202 (items of successful calls). */
  accepted: number;
  elapsedMs: number;
  /** Per call (one batch of `batchSize`). */
  latency: Summary;
  firstError: string | null;
};

/** A payload whose JSON is `bytes` long (padded), like a small real event. */
export function paddedPayload(i: number, bytes: number) {
  const base = { type: "invoice.paid", data: { invoice_id: `in_${i}`, amount: 4200 + (i % 100), currency: "eur", note: "" } };
  const pad = Math.max(0, bytes - JSON.stringify(base).length);
  return { ...base, data: { ...base.data, note: "x".repeat(pad) } };
}

/**
 * POSTs `count` messages to /api/v1/messages/batch, `batchSize` to a call and `concurrency` calls
 * at a time, spread round-robin over `consumers`; times every call. A message counts as accepted
 * when its item is answered 202; anything else is counted as an error, never retried.
 */
export async function sendBatches(
  api: Api,
  options: {
    label: string;
    count: number;
    batchSize: number;
    concurrency: number;
    consumers: string[];
    payloadBytes: number;
    offset?: number;
    /** The messages' event type and payloads; `invoice.paid` and paddedPayload of `payloadBytes` unless given. */
    eventType?: string;
    payload?: (n: number) => unknown;
  },
): Promise<BatchIngestResult> {
  const calls = Math.ceil(options.count / options.batchSize);
  const latencies: number[] = [];
  let accepted = 0;
  let firstError: string | null = null;
  const started = performance.now();
  const stopProgress = every(1000, () => {
    const elapsed = (performance.now() - started) / 1000;
    return `  ${options.label}: ${int(accepted)} / ${int(options.count)} messages accepted (${int(accepted / elapsed)}/s)`;
  });
  try {
    await runConcurrently(calls, options.concurrency, async (call) => {
      const first = call * options.batchSize;
      const messages = Array.from({ length: Math.min(options.batchSize, options.count - first) }, (_, j) => {
        const n = (options.offset ?? 0) + first + j;
        const payload = options.payload ? options.payload(n) : paddedPayload(n, options.payloadBytes);
        return { consumer: options.consumers[n % options.consumers.length], event_type: options.eventType ?? "invoice.paid", payload };
      });
      const response = await api.call("POST", "/api/v1/messages/batch", { messages });
      if (response.status !== 200) {
        firstError ??= `${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
        return;
      }
      latencies.push(response.ms);
      for (const item of response.body.data as { status: number; error?: unknown }[]) {
        if (item.status === 202) accepted += 1;
        else firstError ??= `item ${item.status} ${JSON.stringify(item.error).slice(0, 300)}`;
      }
    });
  } finally {
    stopProgress();
  }
  return { calls, accepted, elapsedMs: performance.now() - started, latency: summarize(latencies), firstError };
}
