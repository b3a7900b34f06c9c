import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { buildIfNeeded } from "../../lib/runtime/build-app";
import { startNode } from "./node-process";
import { waitFor } from "./receiver";

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * The production build (`next build` once, shared by every file that needs it, rebuilt only when
 * a source changed) served by `next start` on a free port, against this test file's database.
 */
export async function startBuiltApp(env: Record<string, string> = {}) {
  await buildIfNeeded({ quiet: true });
  // A PORT of the test's own: its address is known before the app starts (an identity provider's redirect URI).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(path.resolve("node_modules/.bin/next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", APP_URL: url, PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  let stopping = false;
  const done = new Promise<void>((resolve) =>
    child.on("exit", (code, signal) => {
      exited = true;
      // A server that dies mid-file fails its next request as "other side closed"; say why here.
      if (!stopping) console.error(`next start exited on its own (${signal ?? code}):\n${output}`);
      resolve();
    }),
  );
  await waitFor(
    async () => {
      if (exited) throw new Error(`next start exited:\n${output}`);
      return (await fetch(`${url}/api/health`).catch(() => null))?.status === 200;
    },
    { timeout: 60_000, what: "the built app to answer", onTimeout: () => console.log(output) },
  );
  return {
    url,
    output: () => output,
    /** Sends a signal without waiting; `exited` resolves when the server has gone. */
    signal: (signal: NodeJS.Signals) => {
      stopping = true;
      child.kill(signal);
    },
    exited: done,
    stop: async () => {
      stopping = true;
      if (!exited) child.kill("SIGTERM");
      await done;
    },
  };
}

/**
 * `npm run web` as a production host runs it (scripts/start.ts --only web, NODE_ENV=production) on
 * the shared build and a free port, against this test file's database: resolves once
 * /api/health/ready answers 200, with how long that took from the spawn.
 */
export async function startProductionWeb(env: Record<string, string> = {}) {
  // What `npm run build` makes (the shared test build, made here if no earlier suite made it).
  await buildIfNeeded({ quiet: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  // npm run web's command (package.json), as deploy/ runs it.
  const child = startNode("scripts/start.ts", ["--only", "web"], { env: { NODE_ENV: "production", PORT: String(port), APP_URL: url, ...env } });
  try {
    await waitFor(
      async () => {
        if (child.done()) throw new Error(`npm run web exited:\n${child.output()}`);
        return (await fetch(`${url}/api/health/ready`).catch(() => null))?.status === 200;
      },
      { timeout: 60_000, what: "the production web app to be ready", onTimeout: () => console.log(child.output()) },
    );
  } catch (error) {
    await child.signal("SIGTERM");
    throw error;
  }
  return { url, readyAfterMs: Date.now() - started, output: child.output, exited: child.exited, stop: () => child.signal("SIGTERM") };
}
