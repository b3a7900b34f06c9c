import { apiClient, type Api } from "./api";
import type { BenchDatabase } from "./database";
import { sendMessages, type IngestResult } from "./ingest";
import { startWeb } from "./product";
import type { Receiver } from "./receiver";
import { measureDeliveryPairs, type DeliveryPair } from "./delivery-pairs";

/**
 * Part s (issue 22): the product as several processes on one database, on this machine.
 * s1: part b's delivery (queued by SQL) with 2 worker processes and with 1, in pairs in turn.
 * s2: part a's ingest (POST /messages, worker stopped) through 1 `next start` and through 2, the
 * same connections split over both, in pairs in turn. On 2 cores a second process adds no CPU:
 * these figures say what the processes' coordination costs or gains here, not what more hardware
 * gives (docs/scaling.md).
 */

export type IngestPair = { one: IngestResult; two: IngestResult; ratio: number };
export type ScaleOutFigures = { workerPairs: DeliveryPair[]; ingestPairs: IngestPair[] };

/** Requests spread round-robin over several web processes, as a load balancer does. */
function spread(apis: Api[]): Api {
  let next = 0;
  return {
    call: (...args) => apis[next++ % apis.length]!.call(...args),
    expect: (...args) => apis[next++ % apis.length]!.expect(...args),
    close: async () => {
      await Promise.all(apis.map((a) => a.close()));
    },
  };
}

export async function measureScaleOut(
  ctx: { db: BenchDatabase; receiver: Receiver; env: NodeJS.ProcessEnv; logDir: string; webUrl: string },
  options: { pairs: number; deliveries: number; endpointIds: string[]; messages: number; connections: number; log: (line: string) => void },
): Promise<ScaleOutFigures> {
  const workerPairs = await measureDeliveryPairs(ctx, {
    label: "workers",
    pairs: options.pairs,
    deliveries: options.deliveries,
    endpointIds: options.endpointIds,
    log: options.log,
    on: {},
    off: {},
    processes: { on: 2, off: 1 },
  });

  const second = await startWeb(ctx.env, ctx.logDir);
  const one = apiClient(ctx.webUrl, ctx.db.apiKey, options.connections);
  const two = spread([apiClient(ctx.webUrl, ctx.db.apiKey, options.connections / 2), apiClient(second.url, ctx.db.apiKey, options.connections / 2)]);
  const ingestPairs: IngestPair[] = [];
  try {
    await one.expect(201, "POST", "/api/v1/consumers", { uid: "bench-scale", name: "bench-scale" });
    const endpoint = await one.expect(201, "POST", "/api/v1/consumers/bench-scale/endpoints", { url: `${ctx.receiver.url}/scale` });
    // Both processes warm (their routes compiled, their pools open) before anything is timed.
    await sendMessages(two, { label: "warm-up", count: 400, concurrency: options.connections, consumers: ["bench-scale"] });
    let offset = 400;
    for (let i = 0; i < options.pairs; i++) {
      const got: Partial<Record<"one" | "two", IngestResult>> = {};
      for (const side of i % 2 === 0 ? (["one", "two"] as const) : (["two", "one"] as const)) {
        got[side] = await sendMessages(side === "one" ? one : two, {
          label: `ingest, ${side === "one" ? "1 web process" : "2 web processes"}`,
          count: options.messages,
          concurrency: options.connections,
          consumers: ["bench-scale"],
          offset,
        });
        offset += options.messages;
      }
      const rate = (r: IngestResult) => r.accepted / (r.elapsedMs / 1000);
      const pair = { one: got.one!, two: got.two!, ratio: rate(got.two!) / rate(got.one!) };
      ingestPairs.push(pair);
      options.log(
        `  pair ${i + 1}: 1 web ${Math.round(rate(pair.one))}/s (p99 ${Math.round(pair.one.latency.p99)} ms), ` +
          `2 webs ${Math.round(rate(pair.two))}/s (p99 ${Math.round(pair.two.latency.p99)} ms); 2/1 ${pair.ratio.toFixed(3)}`,
      );
    }
    // Its queued deliveries are canceled, not delivered by what follows.
    await one.expect(200, "POST", `/api/v1/endpoints/${endpoint.id}/disable`);
  } finally {
    await Promise.all([one.close(), two.close()]);
    await second.child.stop();
  }
  return { workerPairs, ingestPairs };
}
