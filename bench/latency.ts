import { samplePayload, type Api } from "./api";
import type { Receiver } from "./receiver";
import { sleep, summarize, type Summary } from "./stats";

export type LatencyResult = {
  sent: number;
  arrived: number;
  /** From just before the POST was sent to the webhook's arrival at the receiver. */
  sendToArrival: Summary;
  /** From the message's created_at (set by the app inside the request) to the arrival. */
  createdToArrival: Summary;
  /** The POST /api/v1/messages round trip itself. */
  api: Summary;
};

/**
 * With the worker idle: sends `count` messages one at a time, `gapMs` apart, and matches each
 * message id (the webhook-id header) to its arrival at the receiver.
 */
export async function measureLatency(
  ctx: { api: Api; receiver: Receiver },
  options: { count: number; gapMs: number; consumer: string; eventType?: string },
): Promise<LatencyResult> {
  const sends: { id: string; sentAt: number; createdAt: number }[] = [];
  const apiTimes: number[] = [];
  for (let i = 0; i < options.count; i++) {
    const sentAt = performance.now();
    const response = await ctx.api.call("POST", "/api/v1/messages", { consumer: options.consumer, event_type: options.eventType ?? "invoice.paid", payload: samplePayload(i) });
    if (response.status !== 202) throw new Error(`POST /api/v1/messages answered ${response.status}: ${JSON.stringify(response.body)}`);
    apiTimes.push(response.ms);
    // created_at is wall-clock time; convert it to the performance.now() scale the receiver uses.
    sends.push({ id: response.body.id, sentAt, createdAt: Date.parse(response.body.created_at) - performance.timeOrigin });
    if ((i + 1) % 50 === 0) console.log(`  latency: ${i + 1} / ${options.count} sent`);
    await sleep(options.gapMs);
  }
  const deadline = performance.now() + 30_000;
  while (sends.some((s) => ctx.receiver.arrivalOf(s.id) === undefined) && performance.now() < deadline) await sleep(20);
  const arrived = sends.flatMap((s) => {
    const at = ctx.receiver.arrivalOf(s.id);
    return at === undefined ? [] : [{ ...s, at }];
  });
  return {
    sent: sends.length,
    arrived: arrived.length,
    sendToArrival: summarize(arrived.map((s) => s.at - s.sentAt)),
    createdToArrival: summarize(arrived.map((s) => s.at - s.createdAt)),
    api: summarize(apiTimes),
  };
}
