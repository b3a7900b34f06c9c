import { randomBytes } from "node:crypto";
import { request } from "undici";
import { commands, freePort, startChild, waitUntil, type Child } from "./system";

/** The product as the benchmark runs it: `next start` and the worker, on one database. */

export function productEnv(databaseUrl: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    ALLOW_PRIVATE_ENDPOINTS: "true",
    ALLOW_HTTP_ENDPOINTS: "true",
    API_RATE_LIMIT_PER_SECOND: "1000000",
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

/** Starts the web app (as production runs it, or `next start` alone) on a free port; waits until GET /api/health answers 200. */
export async function startWeb(
  env: NodeJS.ProcessEnv,
  logDir: string,
  server: "web-server" | "next-start" = "web-server",
): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const { command, args } = commands.web(port, server);
  const child = startChild({ name: server === "web-server" ? "web" : "web-next-start", command, args, env: { ...env, PORT: String(port) }, logDir });
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    "GET /api/health = 200",
    async () => {
      const response = await request(`${url}/api/health`);
      await response.body.dump();
      return response.statusCode === 200;
    },
    { timeoutMs: 120_000, child },
  );
  return { child, url };
}

/** Starts the worker and waits for its "worker started" log line (graphile-worker is running). */
export async function startWorker(env: NodeJS.ProcessEnv, logDir: string, cwd?: string, metricsPort = 0): Promise<Child> {
  let ready = false;
  const { command, args } = commands.worker();
  const child = startChild({
    name: "worker",
    command,
    args,
    env: { ...env, WORKER_METRICS_PORT: String(metricsPort) },
    logDir,
    cwd,
    onLine: (line) => {
      if (line.includes('"msg":"worker started"')) ready = true;
    },
  });
  await waitUntil("the worker to start", () => ready, { timeoutMs: 120_000, child });
  return child;
}
