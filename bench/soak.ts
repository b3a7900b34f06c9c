/**
 * Part k of `npm run bench` (issue 39): the soak. A web process and a worker of their own, with
 * retention on (RETENTION_PERIOD, SWEEP_INTERVAL short) and a short retry schedule, take `rate`
 * messages a second through POST /api/v1/messages for `durationMs`; each message goes to `healthy`
 * endpoints that answer 204 and `failing` ones that answer 500 (retried, then failed, their circuits
 * opening and closing). Every `sampleMs` it records the web's and the worker's memory (RSS from
 * /proc, V8 heap from their /metrics), their and PostgreSQL's CPU, the database's connections and
 * size, the queue's depth, and created → arrival p99 at the healthy endpoints in that window.
 *
 * Written as CSV and drawn as an SVG chart (vega-lite, rendered headless by vega), with a verdict
 * per series: whether it levelled off over the second half of the run or still grew, and how fast —
 * a leak or a growing table shows as a slope.
 */
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { request } from "undici";
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import { apiClient } from "./api";
import type { BenchDatabase } from "./database";
import { cpuShares, cpuSnapshot } from "./cpu";
import { startWeb, startWorker } from "./product";
import { percentile, sleep } from "./stats";
import { freePort } from "./system";

export type SoakOptions = {
  durationMs: number;
  /** Messages a second, each fanned out to every endpoint. */
  rate: number;
  healthy: number;
  failing: number;
  sampleMs: number;
  /** Where the CSV and the SVG go. */
  outDir: string;
  log: (line: string) => void;
};

export type SoakSample = {
  /** Seconds since the load started. */
  t: number;
  webRssMb: number;
  webHeapMb: number;
  workerRssMb: number;
  workerHeapMb: number;
  webCpu: number;
  workerCpu: number;
  postgresCpu: number;
  connections: number;
  databaseMb: number;
  queueDepth: number;
  /** Messages accepted (202) and healthy-endpoint arrivals in the window. */
  sent: number;
  arrived: number;
  p99Ms: number;
};

export type SoakVerdict = { series: keyof SoakSample; unit: string; median: number; perHour: number; levelled: boolean };

export type SoakFigures = { samples: SoakSample[]; verdicts: SoakVerdict[]; csv: string; svg: string; errors: number };

/** The series judged for a slope, with their units and what growth over the second half still counts as level. */
const JUDGED: { series: keyof SoakSample; unit: string; tolerance: (median: number) => number }[] = [
  { series: "webRssMb", unit: "MB", tolerance: (m) => Math.max(0.05 * m, 8) },
  { series: "webHeapMb", unit: "MB", tolerance: (m) => Math.max(0.1 * m, 8) },
  { series: "workerRssMb", unit: "MB", tolerance: (m) => Math.max(0.05 * m, 8) },
  { series: "workerHeapMb", unit: "MB", tolerance: (m) => Math.max(0.1 * m, 8) },
  { series: "databaseMb", unit: "MB", tolerance: (m) => Math.max(0.05 * m, 4) },
  { series: "queueDepth", unit: "rows", tolerance: (m) => Math.max(0.25 * m, 50) },
  { series: "connections", unit: "", tolerance: () => 2 },
  { series: "p99Ms", unit: "ms", tolerance: (m) => Math.max(0.5 * m, 10) },
];

const MB = 1024 * 1024;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return line ? Number(line.split(/\s+/)[1]) / 1024 : NaN;
}

/** The V8 heap in use, from a process's Prometheus exposition (prom-client's default metrics). */
async function heapMb(url: string, token: string): Promise<number> {
  const response = await request(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.body.text();
  const line = text.split("\n").find((l) => l.startsWith("webhook_admin_nodejs_heap_size_used_bytes "));
  return line ? Number(line.split(" ")[1]) / MB : NaN;
}

/** Healthy endpoints answer 204 and report each arrival's created → arrival; failing ones answer 500. */
async function startSoakReceiver(onArrival: (ms: number) => void) {
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url?.startsWith("/fail")) {
        res.writeHead(500).end("soak: failing on purpose");
        return;
      }
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { sent?: unknown };
        if (typeof body.sent === "number") onArrival(Date.now() - body.sent);
      } catch {
        // Not a soak message: not counted.
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/**
 * Theil–Sen slope of y over x (per unit of x): the median of every pair's slope, so a few spikes —
 * a garbage collection, a busy minute on the host — do not read as growth.
 */
function slope(points: { x: number; y: number }[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      if (points[j]!.x !== points[i]!.x) slopes.push((points[j]!.y - points[i]!.y) / (points[j]!.x - points[i]!.x));
    }
  }
  if (slopes.length === 0) return 0;
  slopes.sort((a, b) => a - b);
  return slopes[Math.floor(slopes.length / 2)]!;
}

/**
 * Whether each series levelled off: its slope over the second half of the run, as growth over
 * that half, within a tolerance of its median (memory 5–10 %, the database 5 %, the queue a quarter).
 * The first half is warm-up: caches fill, retention's first sweep has not run yet.
 */
export function judge(samples: SoakSample[]): SoakVerdict[] {
  const half = samples.slice(Math.floor(samples.length / 2)).filter((s) => Number.isFinite(s.t));
  const span = half.length > 1 ? half[half.length - 1]!.t - half[0]!.t : 0;
  return JUDGED.map(({ series, unit, tolerance }) => {
    const points = half.map((s) => ({ x: s.t, y: s[series] })).filter((p) => Number.isFinite(p.y));
    const values = points.map((p) => p.y).sort((a, b) => a - b);
    const median = values.length ? values[Math.floor(values.length / 2)]! : NaN;
    const perSecond = slope(points);
    return { series, unit, median, perHour: perSecond * 3600, levelled: Math.abs(perSecond * span) <= tolerance(median) };
  });
}

export function toCsv(samples: SoakSample[]): string {
  const columns = Object.keys(samples[0] ?? { t: 0 }) as (keyof SoakSample)[];
  const cell = (v: number) => (Number.isFinite(v) ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : "");
  return [columns.join(","), ...samples.map((s) => columns.map((c) => cell(s[c])).join(","))].join("\n") + "\n";
}

/** Panels over time, each with its own scale and legend: memory, CPU, the database's size, the queue, connections, latency. */
export async function toSvg(samples: SoakSample[], title: string): Promise<string> {
  const panels: [string, [keyof SoakSample, string][]][] = [
    ["memory (MB)", [["webRssMb", "web RSS"], ["webHeapMb", "web heap"], ["workerRssMb", "worker RSS"], ["workerHeapMb", "worker heap"]]],
    ["CPU (% of one core)", [["webCpu", "web"], ["workerCpu", "worker"], ["postgresCpu", "PostgreSQL"]]],
    ["database size (MB)", [["databaseMb", "size"]]],
    ["queue (rows)", [["queueDepth", "delivery_queue"]]],
    ["connections", [["connections", "to the database"]]],
    ["created → arrival p99 (ms)", [["p99Ms", "p99"]]],
  ];
  const values = samples.flatMap((s) =>
    panels.flatMap(([panel, series]) => series.filter(([key]) => Number.isFinite(s[key])).map(([key, label]) => ({ minute: s.t / 60, panel, series: label, value: s[key] }))),
  );
  const spec: TopLevelSpec = {
    title,
    data: { values },
    facet: { row: { field: "panel", type: "nominal", sort: panels.map(([p]) => p), title: null } },
    spec: {
      width: 720,
      height: 110,
      mark: { type: "line", strokeWidth: 1.5 },
      encoding: {
        x: { field: "minute", type: "quantitative", title: "minutes" },
        y: { field: "value", type: "quantitative", title: null },
        color: { field: "series", type: "nominal", title: null },
      },
    },
    resolve: { scale: { y: "independent", color: "independent" }, legend: { color: "independent" } },
    config: { background: "white" },
  };
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

type Context = { db: BenchDatabase; env: NodeJS.ProcessEnv; logDir: string };

export async function runSoak(ctx: Context, opt: SoakOptions): Promise<SoakFigures> {
  const token = "soak-metrics-token";
  const workerMetricsPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...ctx.env,
    RETENTION_PERIOD: process.env.RETENTION_PERIOD ?? "10m",
    SWEEP_INTERVAL: process.env.SWEEP_INTERVAL ?? "1m",
    // Failing deliveries end within minutes, so the queue's depth can level off within the run.
    DELIVERY_SCHEDULE: process.env.DELIVERY_SCHEDULE ?? "0,1s,5s,30s,2m",
    METRICS_TOKEN: token,
  };
  const web = await startWeb(env, ctx.logDir);
  const worker = await startWorker({ ...env, WORKER_METRICS_HOST: "127.0.0.1" }, ctx.logDir, undefined, workerMetricsPort);
  const api = apiClient(web.url, ctx.db.apiKey, 16);
  let windowLatencies: number[] = [];
  const receiver = await startSoakReceiver((latency) => windowLatencies.push(latency));
  const samples: SoakSample[] = [];
  let errors = 0;
  try {
    const uid = `bench-soak-${Date.now()}`;
    await api.expect(201, "POST", "/api/v1/consumers", { uid, name: "Soak" });
    for (let i = 0; i < opt.healthy; i++) await api.expect(201, "POST", `/api/v1/consumers/${uid}/endpoints`, { url: `${receiver.url}/ok/${i}` });
    for (let i = 0; i < opt.failing; i++) await api.expect(201, "POST", `/api/v1/consumers/${uid}/endpoints`, { url: `${receiver.url}/fail/${i}` });

    const pids = { web: web.child.process.pid, worker: worker.process.pid, postgres: ctx.db.postgresPid };
    const started = performance.now();
    const end = started + opt.durationMs;
    let sent = 0;
    let done = false;
    // The load: one POST every 1000/rate ms on a fixed schedule, whatever the answers' times.
    const load = (async () => {
      const inFlight = new Set<Promise<void>>();
      for (let i = 0; !done; i++) {
        const wait = started + (i * 1000) / opt.rate - performance.now();
        if (wait > 0) await sleep(wait);
        if (done) break;
        const call = api
          .call("POST", "/api/v1/messages", { consumer: uid, event_type: "soak.tick", payload: { sent: Date.now(), i } })
          .then((res) => {
            if (res.status === 202) sent += 1;
            else errors += 1;
          })
          .catch(() => void (errors += 1))
          .finally(() => inFlight.delete(call));
        inFlight.add(call);
      }
      await Promise.all(inFlight);
    })();

    let before = cpuSnapshot(pids);
    let sentBefore = 0;
    for (let next = started + opt.sampleMs; next <= end + 1; next += opt.sampleMs) {
      await sleep(Math.max(0, next - performance.now()));
      const after = cpuSnapshot(pids);
      const shares = cpuShares(before, after) ?? {};
      before = after;
      const latencies = windowLatencies;
      windowLatencies = [];
      const [row] = await ctx.db.sql<{ connections: number; bytes: string; queue: number }[]>`
        select (select count(*)::int from pg_stat_activity where datname = current_database()) as connections,
               pg_database_size(current_database())::text as bytes,
               (select count(*)::int from delivery_queue) as queue`;
      const sample: SoakSample = {
        t: Math.round((performance.now() - started) / 1000),
        webRssMb: rssMb(pids.web!),
        webHeapMb: await heapMb(`${web.url}/api/metrics`, token).catch(() => NaN),
        workerRssMb: rssMb(pids.worker!),
        workerHeapMb: await heapMb(`http://127.0.0.1:${workerMetricsPort}/metrics`, token).catch(() => NaN),
        webCpu: shares.web ?? NaN,
        workerCpu: shares.worker ?? NaN,
        postgresCpu: shares.postgres ?? NaN,
        connections: row!.connections,
        databaseMb: Number(row!.bytes) / MB,
        queueDepth: row!.queue,
        sent: sent - sentBefore,
        arrived: latencies.length,
        p99Ms: latencies.length ? percentile(latencies, 99) : NaN,
      };
      sentBefore = sent;
      samples.push(sample);
      opt.log(
        `  ${String(sample.t).padStart(5)} s: web ${sample.webRssMb.toFixed(0)} MB (heap ${sample.webHeapMb.toFixed(0)}), worker ${sample.workerRssMb.toFixed(0)} MB (heap ${sample.workerHeapMb.toFixed(0)}), ` +
          `db ${sample.databaseMb.toFixed(0)} MB, queue ${sample.queueDepth}, ${sample.connections} connections, p99 ${sample.p99Ms.toFixed(0)} ms, ${sample.sent} sent / ${sample.arrived} arrived`,
      );
    }
    done = true;
    await load;
  } finally {
    await api.close().catch(() => {});
    await Promise.all([worker.stop(), web.child.stop()]);
    await receiver.close();
  }
  const stamp = new Date().toISOString().slice(0, 10);
  const base = `soak-${stamp}-${Math.round(opt.durationMs / 60_000)}m`;
  const csv = path.join(opt.outDir, `${base}.csv`);
  const svg = path.join(opt.outDir, `${base}.svg`);
  await writeFile(csv, toCsv(samples));
  const minutes = Math.round(opt.durationMs / 60_000);
  await writeFile(
    svg,
    await toSvg(samples, `Soak: ${minutes} min, ${opt.rate} messages/s to ${opt.healthy} healthy + ${opt.failing} failing endpoints, retention ${env.RETENTION_PERIOD}`),
  );
  return { samples, verdicts: judge(samples), csv, svg, errors };
}

export function soakVerdictLine(v: SoakVerdict): string {
  const rate = `${v.perHour >= 0 ? "+" : ""}${v.perHour.toFixed(v.unit === "MB" ? 1 : 0)}${v.unit ? ` ${v.unit}` : ""} an hour`;
  return `${v.series.padEnd(13)} ${v.levelled ? "levels off" : "GROWS     "}  median ${v.median.toFixed(1)}${v.unit ? ` ${v.unit}` : ""}, slope ${rate}`;
}
