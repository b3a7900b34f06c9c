import type { Sql } from "../lib/db/client";
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
  /** The slowest few, split (see splitSlowest); empty without a database to read their attempts from. */
  slowest: SlowSplit[];
};

/** One message's created → arrival, split at its first attempt's start (all in ms). */
export type SlowSplit = { total: number; queued: number; sending: number };

/**
 * Where the slowest of `arrivals` spent their time: from created to their first attempt's start
 * (the queue: wake-up, claim, the worker's loop) and from that start to the arrival (the send).
 * An attempt's created_at is when the worker finished it; its start is that less its duration.
 */
export async function splitSlowest(sql: Sql, arrivals: { id: string; createdAt: number; at: number }[], count = 3): Promise<SlowSplit[]> {
  const slowest = [...arrivals].sort((a, b) => b.at - b.createdAt - (a.at - a.createdAt)).slice(0, count);
  if (slowest.length === 0) return [];
  const rows = await sql<{ message_id: string; finished: Date; duration_ms: number }[]>`
    select message_id, created_at as finished, duration_ms from attempts
    where message_id = any(${slowest.map((s) => s.id)}::text[]) and attempt_number = 1`;
  return slowest.flatMap((s) => {
    const row = rows.find((r) => r.message_id === s.id);
    if (!row) return [];
    const start = row.finished.getTime() - row.duration_ms - performance.timeOrigin;
    return [{ total: s.at - s.createdAt, queued: start - s.createdAt, sending: s.at - start }];
  });
}

/** "2,204 ms = 2,190 queued + 14 sending; …" */
export const slowestLine = (splits: SlowSplit[]) =>
  splits.map((s) => `${Math.round(s.total).toLocaleString("en-US")} ms = ${Math.round(s.queued).toLocaleString("en-US")} queued + ${Math.round(s.sending).toLocaleString("en-US")} sending`).join("; ");

/**
 * With the worker idle: sends `count` messages one at a time, `gapMs` apart, and matches each
 * message id (the webhook-id header) to its arrival at the receiver.
 */
export async function measureLatency(
  ctx: { api: Api; receiver: Receiver; sql?: Sql },
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
    slowest: ctx.sql ? await splitSlowest(ctx.sql, arrived) : [],
  };
}
