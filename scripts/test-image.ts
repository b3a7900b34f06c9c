/**
 * `npm run test:image`: the release image, built from deploy/Dockerfile as it is and run as
 * deploy/compose.yaml runs it — `npm run migrate`, then the web app and the worker from the same
 * image, under an init, with their settings from an env file — against a real PostgreSQL (the
 * embedded one, on the host's network). Checks: one message delivered to a receiver here and its
 * signature verified with the official `standardwebhooks` library; both HEALTHCHECKs healthy; the
 * processes not root; `podman stop` ends each with exit code 0 within compose's stop_grace_period.
 * Prints the image's size and how long it took to build.
 *
 * Usage: npm run test:image [-- --image TAG]   (TAG: test an image already built; no build)
 * Needs root on a Debian machine (podman, runc and debootstrap come from Debian's mirror); the
 * base image is made here once (scripts/image/base-image.ts).
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Webhook } from "standardwebhooks";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { ensureBaseImage } from "./image/base-image";
import { ensurePodman, podman, RUN_FLAGS, runVisible } from "./image/podman";

const { values } = parseArgs({ options: { image: { type: "string" } } });
const say = (line: string) => console.log(`[test:image] ${line}`);
const TAG = "localhost/webhook-admin:test";
// deploy/compose.yaml's stop_grace_period for each.
const GRACE_SECONDS = { web: 30, worker: 60 };

async function buildImage(base: string): Promise<{ tag: string; seconds: number }> {
  say(`Building deploy/Dockerfile on ${base}…`);
  const started = performance.now();
  // chroot isolation: crun's default refuses these VMs' cgroups. The docker format keeps the HEALTHCHECK.
  await runVisible("podman", [
    "build", "--format", "docker", "--isolation", "chroot", "--network", "host",
    "--build-arg", `NODE_IMAGE=${base}`, "-f", "deploy/Dockerfile", "-t", TAG, ".",
  ]);
  return { tag: TAG, seconds: Math.round((performance.now() - started) / 1000) };
}

async function until<T>(check: () => Promise<T | null | undefined | false>, what: string, seconds: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${seconds} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A customer's endpoint on 127.0.0.1: it keeps what it receives and answers 204. */
async function startReceiver() {
  const received: { headers: IncomingMessage["headers"]; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, received, close: () => server.close() };
}

/** `podman run` as compose.yaml's services are: an init (init: true), the settings file (env_file). */
const runArgs = (envFile: string) => [...RUN_FLAGS, "--init", "--env-file", envFile];

async function healthy(container: string): Promise<boolean> {
  // No systemd here to run the HEALTHCHECK on its interval: run it now (exit 0 is healthy).
  const ok = await podman(["healthcheck", "run", container]).then(() => true, () => false);
  return ok && (await podman(["inspect", "--format", "{{.State.Health.Status}}", container])) === "healthy";
}

/** `podman stop` with the container's grace period: how long it took and how the process ended. */
async function stop(container: string, grace: number) {
  const started = performance.now();
  await podman(["stop", "--time", String(grace), container]);
  const seconds = (performance.now() - started) / 1000;
  const exitCode = Number(await podman(["inspect", "--format", "{{.State.ExitCode}}", container]));
  return { seconds, exitCode };
}

async function main(): Promise<void> {
  await ensurePodman(say);
  const built = values.image ? { tag: values.image, seconds: null } : await buildImage(await ensureBaseImage(say));
  const image = built.tag;
  const bytes = Number(await podman(["image", "inspect", "--format", "{{.Size}}", image]));
  say(`Image ${image}: ${(bytes / 1e6).toFixed(0)} MB${built.seconds === null ? "" : `, built in ${built.seconds} s`}.`);

  const dir = await mkdtemp(path.join(tmpdir(), "wa-image-"));
  await chmod(dir, 0o755);
  const suffix = `${process.pid}`;
  const containers = { web: `wa-image-web-${suffix}`, worker: `wa-image-worker-${suffix}` };
  const database = await startEmbeddedPostgres({ dir: path.join(dir, "db"), settings: { fsync: "off" } });
  const receiver = await startReceiver();
  try {
    const webPort = await freePort();
    const envFile = path.join(dir, "env");
    // What compose.yaml sets beside deploy/.env; the endpoint here is http on 127.0.0.1.
    const settings = {
      DATABASE_URL: database.url,
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      AUTH_SECRET: randomBytes(32).toString("base64"),
      MIGRATE_ON_START: "false",
      PORT: String(webPort),
      WORKER_METRICS_PORT: String(await freePort()),
      ALLOW_PRIVATE_ENDPOINTS: "true",
      ALLOW_HTTP_ENDPOINTS: "true",
    };
    await writeFile(envFile, Object.entries(settings).map(([name, value]) => `${name}=${value}\n`).join(""), { mode: 0o600 });

    const migrated = await podman(["run", "--rm", ...runArgs(envFile), image, "npm", "run", "migrate"]);
    say(`migrate: ${migrated.split("\n").at(-1)}`);
    const created = await podman(["run", "--rm", ...runArgs(envFile), image, "npm", "run", "cli", "--", "api-key", "create", "--name", "image-test"]);
    const key = /\bsk_\S+/.exec(created)?.[0];
    if (!key) throw new Error(`no API key in the CLI's output:\n${created}`);

    for (const [role, name] of Object.entries(containers)) {
      await podman(["run", "--detach", "--name", name, ...runArgs(envFile), image, "npm", "run", role]);
    }
    // Each check starts a node process in the container: once a second, not to slow the start it waits for.
    for (const name of Object.values(containers)) await until(() => healthy(name), `${name}'s HEALTHCHECK`, 120, 1000);
    say("web and worker: HEALTHCHECK healthy.");
    for (const name of Object.values(containers)) {
      const [user, uid] = [await podman(["inspect", "--format", "{{.Config.User}}", name]), await podman(["exec", name, "id", "-u"])];
      if (user !== "node" || uid === "0") throw new Error(`${name} runs as ${user} (uid ${uid}), not the node user`);
    }
    say("web and worker: running as the node user (uid 1000), not root.");

    const api = async (method: string, route: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${webPort}/api/v1${route}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    await api("POST", "/consumers", { uid: "image_test", name: "Image test" });
    const endpoint = await api("POST", "/consumers/image_test/endpoints", { url: receiver.url });
    const secret = (await api("GET", `/endpoints/${endpoint.id as string}/secret`)).key as string;
    await api("POST", "/messages", { consumer: "image_test", event_type: "invoice.paid", payload: { amount: 42 } });
    const delivery = await until(async () => receiver.received[0], "the delivery", 60);
    const payload = new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    if ((payload as { amount?: number }).amount !== 42) throw new Error(`delivered ${JSON.stringify(payload)}`);
    say("A message was delivered by the worker and verified with standardwebhooks.");

    const stopped = await Promise.all([stop(containers.web, GRACE_SECONDS.web), stop(containers.worker, GRACE_SECONDS.worker)]);
    for (const [role, { seconds, exitCode }] of [["web", stopped[0]], ["worker", stopped[1]]] as const) {
      say(`podman stop ${role}: exit code ${exitCode} after ${seconds.toFixed(1)} s (grace ${GRACE_SECONDS[role]} s).`);
      if (exitCode !== 0 || seconds >= GRACE_SECONDS[role]) throw new Error(`the ${role} did not stop cleanly within its grace period`);
    }
    say("Passed.");
  } catch (error) {
    for (const name of Object.values(containers)) {
      const logs = await podman(["logs", "--tail", "40", name]).catch(() => "");
      if (logs) console.log(`--- ${name} (last lines) ---\n${logs}`);
    }
    throw error;
  } finally {
    for (const name of Object.values(containers)) await podman(["rm", "--force", name]).catch(() => {});
    receiver.close();
    await database.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[test:image] Failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
