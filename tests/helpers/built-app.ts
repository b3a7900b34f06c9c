import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { buildIfNeeded } from "../../lib/runtime/build-app";
import { waitFor } from "./receiver";

const freePort = () =>
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
  const port = await freePort();
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
