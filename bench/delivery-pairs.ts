import { randomBytes } from "node:crypto";
import type { BenchDatabase } from "./database";
import { countAttempts } from "./database";
import { cpuSnapshot } from "./cpu";
import { newId } from "../lib/ids";
import { notifyDue } from "../lib/jobs";
import { QUEUE_KINDS } from "../lib/db/schema/messages";
import type { SqlOrTx } from "../lib/db/client";
import { compactStats } from "../lib/stats/compact-stats";
import { startWorker } from "./product";
import type { Receiver } from "./receiver";
import { awaitDeliveries, type DeliveryResult } from "./throughput";

/** Delivery rates (attempts/s) and CPU time of the worker and PostgreSQL per attempt (µs), with a setting on and off. */
export type DeliveryPair = { on: number; off: number; ratio: number; cpuOn: number; cpuOff: number; order: string };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const summarizePairs = (pairs: DeliveryPair[]) => ({
  on: median(pairs.map((p) => p.on)),
  off: median(pairs.map((p) => p.off)),
  ratio: median(pairs.map((p) => p.ratio)),
  minRatio: Math.min(...pairs.map((p) => p.ratio)),
  maxRatio: Math.max(...pairs.map((p) => p.ratio)),
  cpuOn: median(pairs.map((p) => p.cpuOn)),
  cpuOff: median(pairs.map((p) => p.cpuOff)),
  cpuRatio: median(pairs.map((p) => p.cpuOn / p.cpuOff)),
});

// Each phase's receiver group, across parts: a group's first arrival must be its phase's own.
let phase = 0;

type PairContext = { db: BenchDatabase; receiver: Receiver; env: NodeJS.ProcessEnv; logDir: string };
/** Variables set (or, undefined, unset) for the worker of one side of a pair. */
type WorkerEnv = Record<string, string | undefined>;
type PairOptions = { pairs: number; deliveries: number; endpointIds: string[]; log: (line: string) => void };

/**
 * Part b's delivery with the worker's environment `on` and `off` (part f2: tracing), or each side's
 * own checkout or preparation, `pairs` times in turn — on/off, then off/on — so the machine's drift
 * falls on both alike. Each phase queues `deliveries` by SQL to part b's endpoints (20 consumers × 1
 * endpoint), starts fresh workers, and takes the rate from the first request at the receiver to the
 * last attempt written. `traceparents`: the queued messages carry an ingest traceparent, as
 * a traced web app writes them.
 */
export async function measureDeliveryPairs(
  ctx: PairContext,
  options: PairOptions & {
    label: string;
    on: WorkerEnv;
    off: WorkerEnv;
    traceparents?: boolean;
    /** Worker processes per side (default 1 each): bench/scale-out.ts's 2 against 1. */
    processes?: { on: number; off: number };
    /** The checkout each side's worker runs from (default: this one): bench/worker-ab.ts. */
    cwd?: { on?: string; off?: string };
    /** Run before each phase's work is queued, e.g. to build or drop an index (bench/queue-index.ts). */
    prepare?: (variant: "on" | "off") => Promise<void>;
    /** Run once each phase's work is queued, before its workers start, e.g. to put it in lines (bench/ordering.ts). */
    queued?: (variant: "on" | "off") => Promise<void>;
  },
): Promise<DeliveryPair[]> {
  const { db, receiver } = ctx;
  const pairs: DeliveryPair[] = [];
  const run = async (variant: "on" | "off"): Promise<{ rate: number; cpu: number }> => {
    phase += 1;
    const group = `ab${phase}`;
    // A receiver group per phase, so each phase's first arrival is its own.
    await db.sql`
      update endpoints e set url = ${receiver.url} || '/' || ${group} || '/' || x.i
      from unnest(${options.endpointIds}::text[]) with ordinality as x(id, i) where e.id = x.id`;
    await options.prepare?.(variant);
    await queueDeliveries(db, options.endpointIds, options.deliveries, { traceparents: options.traceparents });
    await options.queued?.(variant);
    // What an earlier phase left appended is folded now, not on this phase's time.
    while ((await compactStats({ ctx: { sql: db.sql } })) === null);
    const attemptsBefore = (await countAttempts(db.sql)).total;
    const started = await Promise.all(
      Array.from({ length: options.processes?.[variant] ?? 1 }, () => startWorker({ ...ctx.env, ...options[variant] }, ctx.logDir, options.cwd?.[variant])),
    );
    const worker = started[0]!;
    // From the worker's start-up done: CPU time is what the setting adds, whatever else the machine runs.
    const pids = { ...Object.fromEntries(started.map((w, i) => [i ? `worker ${i + 1}` : "worker", w.process.pid])), postgres: db.postgresPid };
    const before = cpuSnapshot(pids);
    const result: DeliveryResult = await awaitDeliveries(
      { receiver, db },
      { label: `${options.label} ${variant}`, group, expected: options.deliveries, attemptsBefore, startedAt: worker.spawnedAt },
    );
    const after = cpuSnapshot(pids);
    await Promise.all(started.map((w) => w.stop()));
    const rate = result.attempts / ((result.elapsedMs - result.firstArrivalMs) / 1000);
    const cpuSeconds = (k: string) => (after?.seconds[k] ?? 0) - (before?.seconds[k] ?? 0);
    const cpu = (Object.keys(pids).reduce((sum, k) => sum + cpuSeconds(k), 0) * 1e6) / result.attempts;
    options.log(
      `  ${options.label} ${variant.padEnd(3)}: ${Math.round(rate).toLocaleString("en-US")}/s, worker + PostgreSQL ${Math.round(cpu)} µs CPU per attempt` +
        (result.complete ? "" : " (incomplete)"),
    );
    return { rate, cpu };
  };
  for (let i = 0; i < options.pairs; i++) {
    const order: ("on" | "off")[] = i % 2 === 0 ? ["on", "off"] : ["off", "on"];
    const got: Record<string, { rate: number; cpu: number }> = {};
    for (const variant of order) got[variant] = await run(variant);
    const [on, off] = [got.on!, got.off!];
    pairs.push({ on: on.rate, off: off.rate, ratio: on.rate / off.rate, cpuOn: on.cpu, cpuOff: off.cpu, order: order.join("/") });
    options.log(`  pair ${i + 1}: rate on/off ${(on.rate / off.rate).toFixed(3)}, CPU per attempt on/off ${(on.cpu / off.cpu).toFixed(3)}`);
  }
  return pairs;
}

const CHUNK = 5000;

/**
 * Due deliveries queued the way ingest writes them (message, delivery, queue row), round-robin over
 * the endpoints. `atOnce`: in one transaction that wakes the workers as it commits, so a running
 * worker finds the whole backlog due at once (a burst landing), not chunk by chunk.
 */
export async function queueDeliveries(
  db: BenchDatabase,
  endpointIds: string[],
  count: number,
  { traceparents = false, atOnce = false }: { traceparents?: boolean; atOnce?: boolean } = {},
): Promise<void> {
  const [{ consumers } = { consumers: [] }] = await db.sql<{ consumers: string[] }[]>`
    select array_agg(consumer_id order by x.i) as consumers
    from unnest(${endpointIds}::text[]) with ordinality as x(id, i) join endpoints e on e.id = x.id`;
  const writeChunk = async (sql: SqlOrTx, start: number) => {
    const n = Math.min(CHUNK, count - start);
    const messageIds = Array.from({ length: n }, () => newId("message"));
    const deliveryIds = Array.from({ length: n }, () => newId("delivery"));
    const endpoint = (i: number) => endpointIds[(start + i) % endpointIds.length]!;
    const consumer = (i: number) => consumers[(start + i) % endpointIds.length]!;
    // Each message's own ingest span, as a traced web app stores it.
    const traceparent = () => (traceparents ? `00-${randomBytes(16).toString("hex")}-${randomBytes(8).toString("hex")}-01` : null);
    await sql`
      insert into messages (id, consumer_id, event_type, payload, traceparent)
      select unnest(${messageIds}::text[]), unnest(${messageIds.map((_, i) => consumer(i))}::text[]), 'invoice.paid', '{"bench":"pairs"}',
             unnest(${messageIds.map(traceparent)}::text[])`;
    await sql`
      insert into deliveries (id, message_id, endpoint_id, consumer_id, status, next_attempt_at)
      select unnest(${deliveryIds}::text[]), unnest(${messageIds}::text[]), unnest(${deliveryIds.map((_, i) => endpoint(i))}::text[]),
             unnest(${deliveryIds.map((_, i) => consumer(i))}::text[]), 'pending', now()`;
    await sql`
      insert into delivery_queue (delivery_id, endpoint_id, consumer_id, next_attempt_at)
      select unnest(${deliveryIds}::text[]), unnest(${deliveryIds.map((_, i) => endpoint(i))}::text[]),
             unnest(${deliveryIds.map((_, i) => consumer(i))}::text[]), now()`;
  };
  if (atOnce) {
    await db.sql.begin(async (tx) => {
      for (let start = 0; start < count; start += CHUNK) await writeChunk(tx, start);
      await notifyDue(tx, [QUEUE_KINDS.scheduled]);
    });
  } else {
    for (let start = 0; start < count; start += CHUNK) await db.sql.begin((tx) => writeChunk(tx, start));
  }
}
