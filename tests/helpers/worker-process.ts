import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

/** A real worker process (`npm run worker`'s entry point) on the test file's database. */
export async function spawnWorker(env: Record<string, string> = {}) {
  // node itself, not the tsx wrapper: a signal must reach the worker, not a parent that relays it.
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.resolve("worker/index.ts")], {
    env: { ...process.env, LOG_LEVEL: "info", ...env },
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
