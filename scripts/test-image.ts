/**
 * `npm run test:image`: the release image, built from deploy/Dockerfile as it is, then run twice
 * against a real PostgreSQL:
 *  1. by hand as deploy/compose.yaml runs it — `npm run migrate`, then the web app and the worker
 *     from the same image, under an init, with their settings from an env file — against the
 *     embedded PostgreSQL on the host's network;
 *  2. by Debian's podman-compose from deploy/compose.yaml itself, with its PostgreSQL service on an
 *     image of Debian's PostgreSQL made here (scripts/image/compose.ts).
 * Checks each time: one message delivered to a receiver here and its signature verified with the
 * official `standardwebhooks` library; both HEALTHCHECKs healthy; the processes not root; `podman
 * stop` ends each with exit code 0 within compose's stop_grace_period. Prints the image's size and
 * how long it took to build.
 *
 * Usage: npm run test:image [-- --image TAG]   (TAG: test an image already built; no build)
 * Needs root on a Debian machine (podman, podman-compose, runc and debootstrap come from Debian's
 * mirror); the base images are made here once (scripts/image/base-image.ts).
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { ensureBaseImage } from "./image/base-image";
import { apiKeyFrom, checkRunning, deliverAndVerify, freePort, printLogs, startReceiver, stopCleanly } from "./image/checks";
import { checkCompose } from "./image/compose";
import { ensurePodman, podman, RUN_FLAGS, runVisible } from "./image/podman";

const { values } = parseArgs({ options: { image: { type: "string" } } });
const say = (line: string) => console.log(`[test:image] ${line}`);
const TAG = "localhost/webhook-admin:test";

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

/** `podman run` as compose.yaml's services are: an init (init: true), the settings file (env_file). */
const runArgs = (envFile: string) => [...RUN_FLAGS, "--init", "--env-file", envFile];

/** The image's containers started by hand, as compose.yaml would, on the host's network. */
async function checkByHand(image: string): Promise<void> {
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
    const key = apiKeyFrom(await podman(["run", "--rm", ...runArgs(envFile), image, "npm", "run", "cli", "--", "api-key", "create", "--name", "image-test"]));

    for (const [role, name] of Object.entries(containers)) {
      await podman(["run", "--detach", "--name", name, ...runArgs(envFile), image, "npm", "run", role]);
    }
    await checkRunning(Object.values(containers), say);
    await deliverAndVerify({ webPort, key, receiver, endpointUrl: `http://127.0.0.1:${receiver.port}/webhooks`, consumer: "image_test" });
    say("A message was delivered by the worker and verified with standardwebhooks.");
    await stopCleanly(containers, say);
  } catch (error) {
    await printLogs(Object.values(containers));
    throw error;
  } finally {
    for (const name of Object.values(containers)) await podman(["rm", "--force", name]).catch(() => {});
    receiver.close();
    await database.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  await ensurePodman(say);
  const built = values.image ? { tag: values.image, seconds: null } : await buildImage(await ensureBaseImage(say));
  const image = built.tag;
  const bytes = Number(await podman(["image", "inspect", "--format", "{{.Size}}", image]));
  say(`Image ${image}: ${(bytes / 1e6).toFixed(0)} MB${built.seconds === null ? "" : `, built in ${built.seconds} s`}.`);
  say("1. Run by hand, as deploy/compose.yaml runs it, against the embedded PostgreSQL:");
  await checkByHand(image);
  say("2. Run by podman-compose from deploy/compose.yaml, its PostgreSQL Debian's:");
  await checkCompose(image, say);
  say("Passed.");
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[test:image] Failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
