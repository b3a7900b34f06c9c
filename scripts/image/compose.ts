/**
 * The second half of `npm run test:image`: deploy/compose.yaml itself, run by Debian's podman-compose
 * (1.0.3 on Debian 12) with its PostgreSQL service on an image of Debian's PostgreSQL made here
 * (POSTGRES_IMAGE; the file's default stays the official `postgres:17`, which no registry here serves).
 *
 * podman-compose 1.0.3 starts every service at once and does not wait on `depends_on`'s
 * conditions, nor give `stop_grace_period` to `podman stop`; so the services come up in the order
 * the conditions say — postgres until healthy, migrate until it exits 0, then web and worker — and
 * each is stopped with its grace period, as docs/operating.md tells a podman-compose user to.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ensureDebianImage } from "./base-image";
import { apiKeyFrom, checkRunning, deliverAndVerify, freePort, healthy, printLogs, startReceiver, stopCleanly, until } from "./checks";
import { podman, runVisible } from "./podman";

const exec = promisify(execFile);
const POSTGRES_IMAGE = "localhost/postgres:15-bookworm";
const COMPOSE_TAG = "compose-check";

/** POSTGRES_IMAGE, built from scripts/image/postgres/ on the Debian base (its layers cached by podman). */
async function ensurePostgresImage(say: (line: string) => void): Promise<string> {
  const debian = await ensureDebianImage(say);
  say(`Building ${POSTGRES_IMAGE} (Debian's postgresql-15) on ${debian}…`);
  await runVisible("podman", [
    "build", "--format", "docker", "--isolation", "chroot", "--network", "host",
    "--build-arg", `DEBIAN_IMAGE=${debian}`, "-t", POSTGRES_IMAGE, "scripts/image/postgres",
  ]);
  return POSTGRES_IMAGE;
}

export async function checkCompose(image: string, say: (line: string) => void): Promise<void> {
  const postgresImage = await ensurePostgresImage(say);
  // compose.yaml names its image webhook-admin:${WEBHOOK_ADMIN_VERSION}; podman finds it under localhost/.
  await podman(["tag", image, `localhost/webhook-admin:${COMPOSE_TAG}`]);
  const dir = await mkdtemp(path.join(tmpdir(), "wa-compose-"));
  const project = `wa-compose-${process.pid}`;
  const name = (service: string) => `${project}_${service}_1`;
  const receiver = await startReceiver("0.0.0.0");
  const webPort = await freePort();
  // What deploy/.env holds (deploy/env.example), plus what this check needs: http to this machine.
  const settings = {
    POSTGRES_PASSWORD: randomBytes(16).toString("hex"),
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    AUTH_SECRET: randomBytes(32).toString("base64"),
    POSTGRES_IMAGE: postgresImage,
    WEBHOOK_ADMIN_VERSION: COMPOSE_TAG,
    WEB_PORT: String(webPort),
    ALLOW_PRIVATE_ENDPOINTS: "true",
    ALLOW_HTTP_ENDPOINTS: "true",
  };
  // A copy of the file beside its .env, so that a deploy/.env of this checkout is neither read nor touched.
  const file = path.join(dir, "compose.yaml");
  await copyFile("deploy/compose.yaml", file);
  await writeFile(path.join(dir, ".env"), Object.entries(settings).map(([k, v]) => `${k}=${v}\n`).join(""), { mode: 0o600 });
  // These VMs' runtime and limits (scripts/image/podman.ts's RUN_FLAGS), for every container compose makes.
  const conf = path.join(dir, "containers.conf");
  await writeFile(conf, '[containers]\ndefault_ulimits = ["nofile=20000:20000", "nproc=1000:1000"]\n\n[engine]\nruntime = "runc"\n');
  const env = { ...process.env, CONTAINERS_CONF: conf };
  const compose = (...args: string[]) => exec("podman-compose", ["--no-ansi", "-p", project, "-f", file, ...args], { env, maxBuffer: 64 * 1024 * 1024 });
  const services = ["postgres", "migrate", "web", "worker"].map(name);
  try {
    await compose("up", "-d", "--no-build", "postgres");
    await until(() => healthy(name("postgres")), "postgres's healthcheck", 120, 1000);
    say(`postgres (${postgresImage}): healthy.`);
    await compose("up", "-d", "--no-build", "migrate");
    const exit = await until(async () => {
      const state = await podman(["inspect", "--format", "{{.State.Status}} {{.State.ExitCode}}", name("migrate")]);
      return state.startsWith("exited") ? state : null;
    }, "migrate to finish", 180, 1000);
    if (exit !== "exited 0") throw new Error(`migrate ended ${exit}`);
    say(`migrate: ${(await podman(["logs", name("migrate")])).split("\n").filter(Boolean).at(-1)}`);
    await compose("up", "-d", "--no-build", "web", "worker");
    await checkRunning([name("web"), name("worker")], say);
    const key = apiKeyFrom(await podman(["exec", name("web"), "npm", "run", "cli", "--", "api-key", "create", "--name", "compose-check"]));
    // The published port (WEB_PORT) from here; this machine as the containers reach it from compose's network.
    await deliverAndVerify({ webPort, key, receiver, endpointUrl: `http://host.containers.internal:${receiver.port}/webhooks`, consumer: "compose_check" });
    say("A message sent through the published port was delivered by the worker over compose's network and verified with standardwebhooks.");
    await stopCleanly({ web: name("web"), worker: name("worker") }, say);
  } catch (error) {
    await printLogs(services);
    throw error;
  } finally {
    await compose("down", "-v", "-t", "1").catch(() => {});
    receiver.close();
    await rm(dir, { recursive: true, force: true });
  }
}
