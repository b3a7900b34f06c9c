import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { nextBuildState } from "../lib/runtime/build-state";
import { sleep } from "./stats";

/** Starting and stopping the product's processes (next start, the worker) for the benchmark. */

const bin = (name: string) => path.resolve("node_modules/.bin", name);

/** Runs `next build` when there is no build or a source is newer than it; output goes to the log. */
export async function buildIfNeeded(logDir: string, log: (line: string) => void): Promise<void> {
  const { builtBefore, stale } = nextBuildState();
  if (!stale) {
    log("The Next.js build is up to date.");
    return;
  }
  const logFile = path.join(logDir, "build.log");
  log(`${builtBefore ? "Sources changed since the last build" : "No build yet"}: running next build (log: ${path.relative(process.cwd(), logFile)})…`);
  const started = Date.now();
  const child = spawn(bin("next"), ["build"], { env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  const out = createWriteStream(logFile);
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`next build failed (exit ${code}); see ${logFile}`);
  log(`Built in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type Child = {
  name: string;
  process: ChildProcess;
  /** performance.now() when it was spawned. */
  spawnedAt: number;
  exited: Promise<void>;
  stop: () => Promise<void>;
};

const running = new Set<Child>();
let shuttingDown = false;

/** From now on, children exiting (e.g. on the terminal's Ctrl-C) is expected, not an error. */
export function markShuttingDown(): void {
  shuttingDown = true;
}

/**
 * Spawns a product process with its stdout/stderr appended to logDir/<name>.log. An exit that
 * nobody asked for is reported (the run will then fail on its next wait); `onLine` sees stderr lines.
 */
export function startChild(options: {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  logDir: string;
  onLine?: (line: string) => void;
  /** Another checkout to run the command in (bench/worker-ab.ts runs an earlier commit's worker). */
  cwd?: string;
}): Child {
  const out = createWriteStream(path.join(options.logDir, `${options.name}.log`), { flags: "a" });
  const spawnedAt = performance.now();
  const child = spawn(options.command, options.args, { env: options.env, cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.pipe(out, { end: false });
  createInterface({ input: child.stderr }).on("line", (line) => {
    out.write(line + "\n");
    options.onLine?.(line);
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    child.on("exit", (code, signal) => {
      running.delete(handle);
      if (!stopping && !shuttingDown) console.error(`[bench] The ${options.name} exited unexpectedly (${signal ?? code}); see ${path.join(options.logDir, options.name)}.log`);
      resolve();
    }),
  );
  const handle: Child = {
    name: options.name,
    process: child,
    spawnedAt,
    exited,
    stop: async () => {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
  running.add(handle);
  return handle;
}

const nodeArgs = (variable: string) => (process.env[variable] ?? "").split(" ").filter(Boolean);

export const commands = {
  // As `npm run web` runs it in production (web/server.ts), or `next start` alone (part a's A/B).
  web: (port: number, server: "web-server" | "next-start" = "web-server") =>
    server === "next-start"
      ? { command: bin("next"), args: ["start", "-p", String(port), "-H", "127.0.0.1"] }
      : {
          command: process.execPath,
          // BENCH_WEB_NODE_ARGS: node flags for the web server alone, as BENCH_WORKER_NODE_ARGS for the worker.
          args: [...nodeArgs("BENCH_WEB_NODE_ARGS"), "--import", "tsx", "web/server.ts", "--port", String(port), "--hostname", "127.0.0.1"],
        },
  // As `npm run worker` runs it. BENCH_WORKER_NODE_ARGS adds node flags, e.g. to profile the worker
  // alone: BENCH_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
  worker: () => ({
    command: process.execPath,
    args: [...nodeArgs("BENCH_WORKER_NODE_ARGS"), "--import", "tsx", "worker/index.ts"],
  }),
};

export async function ensureLogDir(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Polls `check` until it is true; fails early if `child` exits. */
export async function waitUntil(what: string, check: () => Promise<boolean> | boolean, options: { timeoutMs: number; child?: Child }) {
  const deadline = performance.now() + options.timeoutMs;
  let exited = false;
  void options.child?.exited.then(() => (exited = true));
  for (;;) {
    if (await Promise.resolve().then(check).catch(() => false)) return;
    if (exited) throw new Error(`${options.child!.name} exited while waiting for ${what}`);
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Stops every process still running: the worker first (it finishes in-flight attempts), then the app. */
export async function stopAll(): Promise<void> {
  const children = [...running];
  const order = (c: Child) => (c.name === "worker" ? 0 : 1);
  for (const child of children.sort((a, b) => order(a) - order(b))) await child.stop();
}

/**
 * Runs `main` when `filename` is the script node was started with — not when bench/run.ts imports
 * the module for its part; a failure prints and exits 1.
 */
export function runAsScript(filename: string, main: () => Promise<void>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== path.resolve(filename)) return;
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
