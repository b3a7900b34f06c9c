/**
 * Part x of `npm run bench` (issue 37): the delivery rate to each kind of destination. A private
 * RabbitMQ node and redis-server (tests/helpers/brokers.ts, Debian's packages), one consumer per
 * kind with `endpoints` endpoints — HTTP to the bench's receiver (answers 204 at once), amqp to the
 * default exchange with a durable queue as the routing key (persistent, mandatory, the publisher
 * confirm awaited), redis_stream XADD with MAXLEN ~ — and, `rounds` times with the kinds' order
 * turned each round, `deliveries` queued by SQL to one kind and drained by a fresh worker: the rate
 * from the worker's start-up done to the last attempt written, every attempt checked successful.
 */
import { connect } from "amqplib";
import { startRabbit, startRedis } from "../tests/helpers/brokers";
import type { Api } from "./api";
import type { BenchDatabase } from "./database";
import { queueDeliveries } from "./delivery-pairs";
import { startWorker } from "./product";
import type { Receiver } from "./receiver";
import { sleep } from "./stats";

export const DESTINATION_KINDS = ["http", "amqp", "redis_stream"] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];
export type DestinationPhase = { kind: DestinationKind; round: number; rate: number; failed: number };

type Context = { db: BenchDatabase; receiver: Receiver; api: Api; env: NodeJS.ProcessEnv; logDir: string };

export async function measureDestinations(
  ctx: Context,
  opt: { rounds: number; deliveries: number; endpoints: number; log: (line: string) => void },
): Promise<DestinationPhase[]> {
  const [rabbit, redis] = await Promise.all([startRabbit(), startRedis()]);
  const queue = "bench-deliveries";
  const channelOwner = await connect(rabbit.url());
  const channel = await channelOwner.createChannel();
  await channel.assertQueue(queue, { durable: true });
  try {
    const endpointIds: Record<DestinationKind, string[]> = { http: [], amqp: [], redis_stream: [] };
    for (const kind of DESTINATION_KINDS) {
      const uid = `bench-dest-${kind}-${Date.now()}`;
      await ctx.api.expect(201, "POST", "/api/v1/consumers", { uid, name: uid });
      for (let i = 0; i < opt.endpoints; i++) {
        const body =
          kind === "http"
            ? { url: `${ctx.receiver.url}/dest-http/${i}`, max_concurrency: 100 }
            : kind === "amqp"
              ? { kind, target: { url: rabbit.url(), exchange: "", routing_key: queue }, max_concurrency: 100 }
              : { kind, target: { url: redis.url(), stream: `bench-${i}`, max_len: 100_000 }, max_concurrency: 100 };
        endpointIds[kind].push((await ctx.api.expect(201, "POST", `/api/v1/consumers/${uid}/endpoints`, body)).id);
      }
    }
    const phases: DestinationPhase[] = [];
    for (let round = 1; round <= opt.rounds; round++) {
      // Each round starts with the next kind, so the machine's drift falls on all of them alike.
      const shift = (round - 1) % DESTINATION_KINDS.length;
      const order = [...DESTINATION_KINDS.slice(shift), ...DESTINATION_KINDS.slice(0, shift)];
      for (const kind of order) {
        const counts = async () => {
          const [row] = await ctx.db.sql<{ n: number; failed: number }[]>`
            select count(*)::int as n, count(*) filter (where not success)::int as failed from attempts where endpoint_id = any(${endpointIds[kind]})`;
          return row!;
        };
        const before = await counts();
        await queueDeliveries(ctx.db, endpointIds[kind], opt.deliveries);
        const worker = await startWorker(ctx.env, ctx.logDir);
        const started = performance.now();
        let done = { n: 0, failed: 0 };
        // Polled every 100 ms: the rate is rounded to that, a fraction of a percent at these sizes.
        while (done.n < opt.deliveries && performance.now() - started < 600_000) {
          await sleep(100);
          const now = await counts();
          done = { n: now.n - before.n, failed: now.failed - before.failed };
        }
        const seconds = (performance.now() - started) / 1000;
        await worker.stop();
        const phase = { kind, round, rate: done.n / seconds, failed: done.failed + Math.max(0, opt.deliveries - done.n) };
        phases.push(phase);
        opt.log(`  round ${round}, ${kind.padEnd(12)}: ${Math.round(phase.rate).toLocaleString("en-US")}/s (${done.n.toLocaleString("en-US")} in ${seconds.toFixed(1)} s)${phase.failed ? `, ${phase.failed} failed or not attempted` : ""}`);
        if (kind === "amqp") await channel.purgeQueue(queue);
      }
    }
    return phases;
  } finally {
    await channel.close().catch(() => {});
    await channelOwner.close().catch(() => {});
    await Promise.all([rabbit.close(), redis.close()]);
  }
}
