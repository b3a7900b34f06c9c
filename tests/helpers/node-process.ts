import { spawn } from "node:child_process";
import path from "node:path";

type Options = {
  /** The checkout to run it in (default: this one); `file` is relative to it. */
  cwd?: string;
  /** Added to the test's environment; undefined unsets. */
  env?: Record<string, string | undefined>;
};

/**
 * One of a checkout's TypeScript entry points as its package.json scripts run them (`node --import
 * tsx FILE ARGS`: node itself, not the tsx wrapper, so a signal reaches the process), with its
 * stdout and stderr collected in one string.
 */
export function startNode(file: string, args: string[] = [], options: Options = {}) {
  const env = Object.fromEntries(Object.entries({ ...process.env, ...options.env }).filter(([, value]) => value !== undefined));
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve(options.cwd ?? ".", file), ...args], {
    cwd: options.cwd,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  let done = false;
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      done = true;
      resolve(code);
    }),
  );
  return {
    output: () => output,
    /** Whether it has exited. */
    done: () => done,
    /** Its exit code, once it has exited. */
    exited,
    /** Sends `signal` unless it has exited already; resolves with its exit code. */
    signal: (signal: NodeJS.Signals = "SIGTERM") => {
      if (!done) child.kill(signal);
      return exited;
    },
  };
}

/** Runs an entry point to its end: its exit code and all it printed. */
export async function runNode(file: string, args: string[] = [], options: Options = {}) {
  const child = startNode(file, args, options);
  return { code: await child.exited, output: child.output() };
}
