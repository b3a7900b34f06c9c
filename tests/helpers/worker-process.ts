import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * A real worker process (`npm run worker`'s entry point) on the test file's database. `dns`: host
 * names answered with these addresses (or made to throw) instead of the system resolver's. `tree`:
 * another checkout whose worker to run, in that folder (tests/operations/upgrade.test.ts's previous release).
 */
export async function spawnWorker(env: Record<string, string> = {}, options: { dns?: Record<string, string[] | "throw">; tree?: string } = {}) {
  const preload = options.dns ? ["--import", pathToFileURL(path.resolve("tests/helpers/stub-dns.mjs")).href] : [];
  const stub = options.dns ? { STUB_DNS: JSON.stringify(options.dns) } : {};
  // node itself, not the tsx wrapper: a signal must reach the worker, not a parent that relays it.
  const tree = options.tree ?? process.cwd();
  const child: ChildProcess = spawn(process.execPath, [...preload, "--import", "tsx", path.join(tree, "worker/index.ts")], {
    cwd: tree,
    env: { ...process.env, LOG_LEVEL: "info", ...env, ...stub },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    // Generous: a loaded machine compiles the worker's TypeScript slowly.
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 90_000);
    const check = () => {
      if (output.includes('"worker started"')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr!.on("data", check);
    child.on("exit", () => reject(new Error(`worker exited early:\n${output}`)));
  });
  return {
    pid: child.pid!,
    output: () => output,
    exited,
    kill: (signal: NodeJS.Signals = "SIGTERM") => {
      child.kill(signal);
      return exited;
    },
  };
}
