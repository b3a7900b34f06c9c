/**
 * Part n of `npm run bench` (issue 38): a noisy neighbour. Consumer A has `messages` due over
 * `endpoints` fast endpoints (max_concurrency 100; queued by SQL, as part b's); consumer B sends `rate` messages a second
 * to its one endpoint through POST /api/v1/messages (a receiver in a process of its own, as another
 * customer's server would be). B's created → arrival is measured idle, then
 * while A's backlog drains; A's drains go alone and with B beside it in turn, `pairs` times, and
 * end alone (each drain with B is compared with the mean of the alone drains either side). The same phases run
 * first with the claim of commit `ref` (time-order claiming: the oldest due rows first, whoever
 * they belong to), then with this tree's (fair claiming across consumers), on the same database,
 * worker and receiver — each claim put in place (CREATE OR REPLACE) before its phases' workers start.
 */
import { compactStats } from "../lib/stats/compact-stats";
import type { Api } from "./api";
import { applyThisTreesClaim, claimBodyAt } from "./claim-ab";
import type { BenchDatabase } from "./database";
import { queueDeliveries } from "./delivery-pairs";
import { slowestLine, splitSlowest, type SlowSplit } from "./latency";
import { startWorker } from "./product";
import type { Receiver } from "./receiver";
import { startReceiverProcess } from "./receiver-process";
import { int, median, sleep, summarize, type Summary } from "./stats";

export type FairnessRun = {
  claim: string;
  /** B's created → arrival with the worker idle, and while A's backlog drains (every drain with B, pooled). */
  idle: Summary;
  busy: Summary;
  /** A's arrivals per second, alone and with B beside it: the medians of the drains. */
  aloneRate: number;
  besideRate: number;
  /** Each drain with B over the mean of the alone drains before and after it, in order, and their median: the figure. */
  ratios: number[];
  ratio: number;
  /** B's messages sent and arrived while A drained. */
  busySent: number;
  busyArrived: number;
};

type FairnessOptions = { messages: number; endpoints: number; rate: number; idleSeconds: number; pairs: number; ref: string; log: (line: string) => void };

type Context = { db: BenchDatabase; receiver: Receiver; api: Api; env: NodeJS.ProcessEnv; logDir: string };

/**
 * A worker that keeps the claim in place: on start a worker migrates and applies this tree's SQL
 * functions (MIGRATE_ON_START), which would put this tree's claim back over the one being measured.
 */
const startClaimWorker = (ctx: Context) => startWorker({ ...ctx.env, MIGRATE_ON_START: "false" }, ctx.logDir);

/** B's messages of one phase: created → arrival of each that arrived, and the slowest split. */
type Paced = { latencies: number[]; sent: number; arrived: number; slowest: SlowSplit[] };

/**
 * B's sends, one every 1000/rate ms on a fixed schedule (a slow answer does not delay the next),
 * until `until` settles; then each sent from `since()` on is matched to its arrival (up to 60 s more) by its webhook-id.
 */
async function paced(
  ctx: Context,
  arrivalOf: (webhookId: string) => number | undefined,
  consumer: string,
  rate: number,
  until: Promise<unknown>,
  since: () => number = () => 0,
): Promise<Paced> {
  const sends: { id: string; createdAt: number }[] = [];
  let done = false;
  void until.finally(() => (done = true));
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; !done; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await Promise.race([sleep(wait), until]);
    if (done) break;
    inFlight.push(
      ctx.api.call("POST", "/api/v1/messages", { consumer, event_type: "invoice.paid", payload: { fair: i } }).then((res) => {
        if (res.status !== 202) throw new Error(`POST /api/v1/messages answered ${res.status}: ${JSON.stringify(res.body)}`);
        sends.push({ id: res.body.id, createdAt: Date.parse(res.body.created_at) - performance.timeOrigin });
      }),
    );
  }
  await Promise.all(inFlight);
  // Only what was sent from `since` on (the backlog's commit): what came before met an idle worker.
  const from = since();
  const counted = sends.filter((s) => s.createdAt >= from);
  const deadline = performance.now() + 60_000;
  while (counted.some((s) => arrivalOf(s.id) === undefined) && performance.now() < deadline) await sleep(20);
  const arrivals = counted.flatMap((s) => {
    const at = arrivalOf(s.id);
    return at === undefined ? [] : [{ ...s, at }];
  });
  return {
    latencies: arrivals.map((s) => s.at - s.createdAt),
    sent: counted.length,
    arrived: arrivals.length,
    slowest: await splitSlowest(ctx.db.sql, arrivals),
  };
}

let phase = 0;

/**
 * A's backlog, landing at once (one transaction queued by SQL, committed with a wake-up) on a
 * running worker, as a nightly import's does, with `beside` running from before it lands; its
 * arrival rate at a fresh receiver group. The worker starts first: a worker starting on a backlog
 * claims slowly for its first second (cold caches, its event loop busy starting), and B's messages
 * sent then measured the start-up, not the sharing.
 */
async function drain(
  ctx: Context,
  endpointIds: string[],
  messages: number,
  label: string,
  log: (line: string) => void,
  beside?: (done: Promise<unknown>, since: () => number) => Promise<unknown>,
) {
  phase += 1;
  const group = `fair${phase}`;
  await ctx.db.sql`
    update endpoints e set url = ${ctx.receiver.url} || '/' || ${group} || '/' || x.i
    from unnest(${endpointIds}::text[]) with ordinality as x(id, i) where e.id = x.id`;
  while ((await compactStats({ ctx: { sql: ctx.db.sql } })) === null);
  // The last drain's dead rows cleaned now, not by autovacuum during this one: each drain starts
  // from the same state. (Without it, drains of one run went at 2,100–3,100/s, B or no B.)
  await ctx.db.sql`vacuum analyze delivery_queue, deliveries, messages`;
  const worker = await startClaimWorker(ctx);
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let landed = Infinity;
  const besideRun = beside?.(done, () => landed);
  await queueDeliveries(ctx.db, endpointIds, messages, { atOnce: true });
  landed = performance.now();
  let lastLog = performance.now();
  const deadline = performance.now() + 600_000;
  while (ctx.receiver.count(group) < messages && performance.now() < deadline) {
    await sleep(50);
    if (performance.now() - lastLog > 5_000) {
      lastLog = performance.now();
      log(`  ${label}: ${ctx.receiver.count(group).toLocaleString("en-US")} / ${messages.toLocaleString("en-US")} arrived`);
    }
  }
  resolveDone();
  const result = await besideRun;
  await worker.stop();
  const first = ctx.receiver.firstAt(group) ?? 0;
  const last = ctx.receiver.lastAt(group) ?? first;
  return { rate: (ctx.receiver.count(group) * 1000) / Math.max(1, last - first), beside: result };
}

export async function measureFairness(
  ctx: Context,
  options: FairnessOptions,
): Promise<FairnessRun[]> {
  const { api } = ctx;
  const [busyUid, quietUid] = ["bench-fair-a", "bench-fair-b"];
  await api.expect(201, "POST", "/api/v1/consumers", { uid: busyUid, name: busyUid });
  await api.expect(201, "POST", "/api/v1/consumers", { uid: quietUid, name: quietUid });
  const endpointIds: string[] = [];
  for (let i = 0; i < options.endpoints; i++) {
    // Room for all of its work at once (as part b's endpoints): its backlog waits due in the queue,
    // in time order, not parked behind its endpoints' caps.
    endpointIds.push(
      (await api.expect(201, "POST", `/api/v1/consumers/${busyUid}/endpoints`, { url: `${ctx.receiver.url}/fair-setup/${i}`, max_concurrency: 100 })).id,
    );
  }
  // B's endpoint is another customer's server: a process of its own, not the bench's event loop
  // that takes A's thousands of requests a second (see startReceiverProcess).
  const quiet = await startReceiverProcess();
  try {
    await api.expect(201, "POST", `/api/v1/consumers/${quietUid}/endpoints`, { url: `${quiet.url}/fair-quiet` });
    return await phases(ctx, options, { quietUid, endpointIds, arrivalOf: quiet.arrivalOf });
  } finally {
    await quiet.close();
  }
}

async function phases(
  ctx: Context,
  options: FairnessOptions,
  setup: { quietUid: string; endpointIds: string[]; arrivalOf: (webhookId: string) => number | undefined },
): Promise<FairnessRun[]> {
  const { db } = ctx;
  const { log } = options;
  const { quietUid, endpointIds, arrivalOf } = setup;
  const before = options.ref === "none" ? "" : claimBodyAt(options.ref);
  const runs: FairnessRun[] = [];
  for (const claim of options.ref === "none" ? ["this tree"] : [options.ref, "this tree"]) {
    if (claim === options.ref) await db.sql.unsafe(before);
    else await applyThisTreesClaim(db.sql);
    log(` claim: ${claim === options.ref ? `${options.ref}'s (time order)` : "this tree's (fair across consumers)"}`);
    const idleWorker = await startClaimWorker(ctx);
    // Two seconds of B not counted first: a worker's first claims are slow (as in the drains below,
    // where B sends from the worker's start and counts from the backlog's landing).
    await paced(ctx, arrivalOf, quietUid, options.rate, sleep(2_000));
    const idle = await paced(ctx, arrivalOf, quietUid, options.rate, sleep(options.idleSeconds * 1000));
    await idleWorker.stop();
    const idleSummary = summarize(idle.latencies);
    log(`  B idle: created → arrival p50 ${idleSummary.p50.toFixed(1)} ms, p99 ${idleSummary.p99.toFixed(1)} ms (${idle.arrived} / ${idle.sent})`);
    // Alone and with B in turn, ending alone: a drain's rate moves from one to the next (larger
    // tables, the host; 2,411–3,415/s alone in one run), so each drain with B is compared with the
    // alone drains either side of it, and the median of those ratios is the figure.
    const alone = [await drain(ctx, endpointIds, options.messages, "A alone", log)];
    const besides: { rate: number; b: Paced }[] = [];
    for (let pair = 1; pair <= options.pairs; pair++) {
      const beside = await drain(ctx, endpointIds, options.messages, `A with B (${pair}/${options.pairs})`, log, (done, since) =>
        paced(ctx, arrivalOf, quietUid, options.rate, done, since),
      );
      besides.push({ rate: beside.rate, b: beside.beside as Paced });
      alone.push(await drain(ctx, endpointIds, options.messages, "A alone", log));
    }
    const ratios = besides.map((beside, i) => beside.rate / ((alone[i]!.rate + alone[i + 1]!.rate) / 2));
    const ratio = median(ratios);
    const busy = summarize(besides.flatMap((beside) => beside.b.latencies));
    const busySent = besides.reduce((n, beside) => n + beside.b.sent, 0);
    const busyArrived = besides.reduce((n, beside) => n + beside.b.arrived, 0);
    const slowest = besides
      .flatMap((beside) => beside.b.slowest)
      .sort((x, y) => y.total - x.total)
      .slice(0, 3);
    log(
      `  A alone ${alone.map((d) => `${int(d.rate)}/s`).join(", ")}; with B ${besides.map((d) => `${int(d.rate)}/s`).join(", ")}; ` +
        `with B / alone either side ${ratios.map((r) => r.toFixed(3)).join(", ")} (median ${ratio.toFixed(3)})`,
    );
    log(
      `  B beside A (${besides.length} drains): created → arrival p50 ${busy.p50.toFixed(1)} ms, p99 ${busy.p99.toFixed(1)} ms, max ${busy.max.toFixed(1)} ms (${busyArrived} / ${busySent}); ` +
        `p99 drain by drain ${besides.map((d) => summarize(d.b.latencies).p99.toFixed(1)).join(", ")} ms; B's slowest: ${slowestLine(slowest)}`,
    );
    runs.push({
      claim,
      idle: idleSummary,
      busy,
      aloneRate: median(alone.map((d) => d.rate)),
      besideRate: median(besides.map((d) => d.rate)),
      ratios,
      ratio,
      busySent,
      busyArrived,
    });
  }
  return runs;
}
