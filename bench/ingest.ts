import { runConcurrently, samplePayload, type Api } from "./api";
import { every, int, summarize, type Summary } from "./stats";

export type IngestResult = {
  sent: number;
  accepted: number;
  elapsedMs: number;
  latency: Summary;
  /** The message ids the API returned, in send order. */
  ids: string[];
  firstError: string | null;
};

/**
 * POSTs `count` messages to /api/v1/messages, `concurrency` at a time, spread round-robin over
 * `consumers`; times every request. Anything but 202 is counted as an error, never retried.
 */
export async function sendMessages(
  api: Api,
  options: {
    label: string;
    count: number;
    concurrency: number;
    consumers: string[];
    offset?: number;
    /** The messages' event type and payloads; `invoice.paid` and samplePayload unless given. */
    eventType?: string;
    payload?: (n: number) => unknown;
  },
): Promise<IngestResult> {
  const latencies: number[] = [];
  const ids: string[] = [];
  let done = 0;
  let firstError: string | null = null;
  const started = performance.now();
  const stopProgress = every(1000, () => {
    const elapsed = (performance.now() - started) / 1000;
    return `  ${options.label}: ${int(done)} / ${int(options.count)} sent (${int(done / elapsed)}/s)`;
  });
  try {
    await runConcurrently(options.count, options.concurrency, async (i) => {
      const n = (options.offset ?? 0) + i;
      const response = await api.call("POST", "/api/v1/messages", {
        consumer: options.consumers[n % options.consumers.length],
        event_type: options.eventType ?? "invoice.paid",
        payload: (options.payload ?? samplePayload)(n),
      });
      done += 1;
      if (response.status === 202) {
        latencies.push(response.ms);
        ids[i] = response.body.id;
      } else {
        firstError ??= `${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
      }
    });
  } finally {
    stopProgress();
  }
  return {
    sent: options.count,
    accepted: latencies.length,
    elapsedMs: performance.now() - started,
    latency: summarize(latencies),
    ids,
    firstError,
  };
}
