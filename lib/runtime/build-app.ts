import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { nextBuildState } from "./build-state";

const LOCK = ".next-build.lock";

function holderAlive(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(LOCK, "pid"), "utf8"));
  } catch {
    pid = 0;
  }
  // No pid yet: the holder made the lock a moment ago and is writing it, unless that was long ago.
  if (!pid) {
    try {
      return Date.now() - statSync(LOCK).mtimeMs < 10_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One build at a time per checkout: `npm start`s and test files started together share it. */
async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(path.join(LOCK, "pid"), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // A holder that died leaves its lock behind; anyone may take it over.
      if (!holderAlive()) rmSync(LOCK, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Builds the Next.js app when there is no build yet or a source file is newer than it. */
export async function buildIfNeeded(options: { say?: (line: string) => void; quiet?: boolean } = {}): Promise<void> {
  if (!nextBuildState().stale) return;
  await withBuildLock(async () => {
    const { builtBefore, stale } = nextBuildState();
    if (!stale) return;
    options.say?.(builtBefore ? "Sources changed since the last build: rebuilding the web app…" : "Building the web app (first start only; about a minute)…");
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const child = spawn(path.resolve("node_modules/.bin/next"), ["build"], {
        stdio: options.quiet ? ["ignore", "pipe", "pipe"] : "inherit",
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
      });
      child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build failed with exit code ${code}\n${output}`))));
    });
  });
}
