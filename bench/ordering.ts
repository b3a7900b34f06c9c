/**
 * Part o of `npm run bench` (issue 36): what ordered delivery costs. (1) One endpoint
 * (max_concurrency 100) gets part b's work queued by SQL, unordered, and ordered over 1,000 keys —
 * each key's first row due and the rest held, as ingest places them in lines — pairs in turn, fresh
 * workers each phase: the delivery rate ordered / unordered (goal ≥ 0.8). (2) One key's line with
 * the worker idle: 50 messages of one key in one batch, each attempted only once the one before it
 * has settled — the step from one arrival to the next, and the whole line's time.
 */
import type { Api } from "./api";
import type { BenchDatabase } from "./database";
import { measureDeliveryPairs, type DeliveryPair } from "./delivery-pairs";
import type { Receiver } from "./receiver";
import { sleep, summarize, type Summary } from "./stats";

export type LineLatency = { messages: number; arrived: number; step: Summary; wholeMs: number };

type PairContext = { db: BenchDatabase; receiver: Receiver; env: NodeJS.ProcessEnv; logDir: string };

export async function measureOrderingCost(
  ctx: PairContext,
  options: { pairs: number; deliveries: number; keys: number; endpointId: string; log: (line: string) => void },
): Promise<DeliveryPair[]> {
  const { sql } = ctx.db;
  return measureDeliveryPairs(ctx, {
    label: "ordering",
    pairs: options.pairs,
    deliveries: options.deliveries,
    endpointIds: [options.endpointId],
    log: options.log,
    on: {},
    off: {},
    prepare: async (variant) => {
      await sql`update endpoints set ordering = ${variant === "on" ? "ordered" : "none"}, ordering_key = ${variant === "on" ? "k" : null} where id = ${options.endpointId}`;
    },
    // The queued rows put in lines as ingest places them: keys dealt round robin in creation order,
    // each line's first due and the rest held, its places in that order.
    queued: async (variant) => {
      if (variant === "off") return;
      await sql`
        with q as (
          select delivery_id, (row_number() over (order by delivery_id) - 1) % ${options.keys} as k
          from delivery_queue where endpoint_id = ${options.endpointId} and kind = 0),
        r as (select delivery_id, k::text as key, row_number() over (partition by k order by delivery_id) as n from q)
        update delivery_queue d set line_key = r.key, line_seq = r.n,
          next_attempt_at = case when r.n = 1 then d.next_attempt_at else 'infinity' end
        from r where d.delivery_id = r.delivery_id and d.kind = 0`;
    },
  });
}

/** With a worker running and idle: one key's `messages` sent in one batch to an ordered endpoint of `consumer`. */
export async function measureLineLatency(ctx: { api: Api; receiver: Receiver }, options: { consumer: string; messages: number }): Promise<LineLatency> {
  const sentAt = performance.now();
  const res = await ctx.api.call("POST", "/api/v1/messages/batch", {
    messages: Array.from({ length: options.messages }, (_, i) => ({ consumer: options.consumer, event_type: "invoice.paid", payload: { k: "one-key", n: i } })),
  });
  if (res.status !== 200) throw new Error(`POST /api/v1/messages/batch answered ${res.status}: ${JSON.stringify(res.body)}`);
  const ids: string[] = res.body.data.map((d: { message: { id: string } }) => d.message.id);
  const deadline = performance.now() + 60_000;
  while (ids.some((id) => ctx.receiver.arrivalOf(id) === undefined) && performance.now() < deadline) await sleep(20);
  const arrivals = ids.map((id) => ctx.receiver.arrivalOf(id)).filter((at): at is number => at !== undefined);
  const steps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
  return { messages: ids.length, arrived: arrivals.length, step: summarize(steps), wholeMs: (arrivals.at(-1) ?? sentAt) - sentAt };
}
