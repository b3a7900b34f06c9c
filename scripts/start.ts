/**
 * `npm start`: the whole product in one command — the embedded PostgreSQL when DATABASE_URL is not
 * set, migrations, on the embedded demo's first start a demo login, API key and consumer whose
 * traffic goes out once the app answers (with DATABASE_URL, the CLI commands that create a login
 * and key instead, and no demo), then the web app and the worker as child processes. `--dev` runs
 * both with reload; `--only web` starts the web app alone. With NODE_ENV=production it runs the
 * build `npm run build` made and never builds; otherwise it builds first when a source changed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { checkSingleSignOn } from "../lib/auth/oidc-issuer";
import { ConfigError, parseConfig } from "../lib/config";
import { checkEncryptionKey } from "../lib/crypto/key-check";
import { closeDb, getSql } from "../lib/db/client";
import { migrateOnStart } from "../lib/db/migrate";
import { DATA_DIR, resolveDatabase } from "../lib/runtime/database";
import { buildIfNeeded } from "../lib/runtime/build-app";
import { nextBuildState } from "../lib/runtime/build-state";
import { hasCredentials, seedDemo } from "../lib/runtime/seed-demo";
import { sendDemoTraffic } from "../lib/demo/send-demo-traffic";
import { DEMO_CONSUMER, DEMO_MESSAGES } from "../lib/demo/catalog";
import { systemCtx } from "../lib/open-ctx";

const { values } = parseArgs({ options: { dev: { type: "boolean" }, only: { type: "string" } } });
const bin = (name: string) => path.resolve("node_modules/.bin", name);
const say = (line: string) => console.log(`[webhook-admin] ${line}`);

const children = new Map<string, ChildProcess>();
let stopping = false;
const stopTraffic = new AbortController();

function startChild(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, restart: boolean): void {
  const child = spawn(command, args, { stdio: "inherit", env });
  children.set(name, child);
  child.on("exit", (code, signal) => {
    children.delete(name);
    if (stopping) return;
    if (restart) {
      say(`The ${name} exited (${signal ?? code}); restarting it in 1 s.`);
      setTimeout(() => !stopping && startChild(name, command, args, env, restart), 1000);
    } else {
      say(`The ${name} exited (${signal ?? code}); stopping.`);
      void shutdown(typeof code === "number" && code !== 0 ? code : 1);
    }
  });
}

let database: Awaited<ReturnType<typeof resolveDatabase>> | undefined;

async function shutdown(exitCode = 0): Promise<void> {
  if (stopping) return;
  stopping = true;
  stopTraffic.abort();
  say("Stopping…");
  await Promise.all(
    [...children.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          // The worker finishes in-flight attempts first; never wait forever.
          setTimeout(() => child.kill("SIGKILL"), 60_000).unref();
        }),
    ),
  );
  await database?.stop();
  say("Stopped.");
  process.exit(exitCode);
}

async function main(): Promise<void> {
  const mode = values.only ?? "all";
  if (!["all", "web"].includes(mode)) throw new ConfigError(`--only must be "web" (the worker starts with npm run worker)`);
  if (mode === "web" && !process.env.DATABASE_URL) {
    throw new ConfigError("npm run web starts the web app alone against DATABASE_URL; set it, or use npm start");
  }
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());

  database = await resolveDatabase({ log: say });
  if (database.embedded) say(`Embedded PostgreSQL is running (data in ${path.join(DATA_DIR, "embedded")}).`);
  const config = parseConfig(process.env);
  if (!config.AUTH_SECRET) {
    throw new ConfigError(
      "Invalid configuration:\n  AUTH_SECRET: required with DATABASE_URL to sign dashboard sessions (e.g. `openssl rand -base64 32`)",
    );
  }
  const ssoIssuer = await checkSingleSignOn(config);
  if (ssoIssuer) say(`Single sign-on through ${ssoIssuer}${config.PASSWORD_SIGN_IN ? "" : " (password sign-in off)"}.`);
  await migrateOnStart(database.url, config.MIGRATE_ON_START, mode === "web" ? "web app" : "web app and worker");
  await checkEncryptionKey(getSql(), config);
  const demo = database.embedded ? await seedDemo({ ctx: systemCtx(), appUrl: config.APP_URL }) : null;
  const noCredentials = !database.embedded && !(await hasCredentials(systemCtx()));
  await closeDb();

  if (process.env.NODE_ENV === "production" && !values.dev) {
    // A production host runs what `npm run build` made, as it is: never a compile on start.
    if (!nextBuildState().builtBefore) throw new ConfigError("NODE_ENV=production and there is no build in .next/: run `npm run build` first (a production start never compiles).");
  } else if (!values.dev) {
    await buildIfNeeded({ say });
  }
  // The demo's receivers exist only in the embedded demo, whatever the environment says.
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", WEBHOOK_ADMIN_DEMO: database.embedded ? "true" : "false" };
  const port = String(config.PORT);
  // Production: Next.js behind the web server that serves the hottest route directly (ADR 0035).
  if (values.dev) startChild("web app", bin("next"), ["dev", "-p", port], env, false);
  else startChild("web app", process.execPath, ["--import", "tsx", "web/server.ts", "--port", port], env, false);
  if (mode === "all") {
    // node itself rather than the tsx wrapper, so signals reach the worker directly.
    const worker = values.dev ? [bin("tsx"), ["watch", "worker/index.ts"]] : [process.execPath, ["--import", "tsx", "worker/index.ts"]];
    startChild("worker", worker[0] as string, worker[1] as string[], env, true);
  }

  say(`Webhook Admin is running at ${config.APP_URL}`);
  say(`  REST API:  ${config.APP_URL}/api/v1   (reference: ${config.APP_URL}/api/v1/openapi.json)`);
  say(`  Health:    ${config.APP_URL}/api/health`);
  if (demo) {
    say("First start: a demo login and API key were created. They are shown only this once:");
    say(`  Operator login:  ${demo.email} / ${demo.password}`);
    say(`  API key:         ${demo.apiKey}`);
    say(`  Try: curl -H "Authorization: Bearer ${demo.apiKey}" ${config.APP_URL}/api/v1/consumers`);
    if (demo.consumer) {
      say(`Demo: consumer "${demo.consumer}" with three endpoints on this app's own receivers; ${DEMO_MESSAGES} messages go out over the next minute.`);
      void demoTraffic(port);
    } else {
      say(`Demo: no demo consumer (${demo.consumerError}); the login and key work as usual.`);
    }
  } else if (noCredentials) {
    say("No operator login or API key exists yet. Create them with this DATABASE_URL and ENCRYPTION_KEY set (the key is printed once, to your terminal):");
    say("  npm run cli -- operator create --email E --password P");
    say("  npm run cli -- api-key create --name NAME");
  }
  say("Press Ctrl-C to stop.");
}

/** Once the web app answers (its receivers take the traffic), the demo's messages, through the ingest verb. */
async function demoTraffic(port: string): Promise<void> {
  try {
    for (;;) {
      if (stopping) return;
      const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
      if (res?.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const sent = await sendDemoTraffic({ ctx: systemCtx(), everyMs: 4000, signal: stopTraffic.signal });
    say(`Demo: ${sent} messages sent to ${DEMO_CONSUMER.name} — sign in to see them.`);
  } catch (error) {
    if (!stopping) say(`Demo: sending its messages stopped (${error instanceof Error ? error.message : String(error)}).`);
  } finally {
    await closeDb().catch(() => {});
  }
}

main().catch(async (error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  await database?.stop().catch(() => {});
  process.exit(1);
});
