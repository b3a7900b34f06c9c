/**
 * What scripts/test-image.ts checks of a running image, whether podman runs its containers by hand
 * or podman-compose runs deploy/compose.yaml: waiting, a receiver, the HEALTHCHECK, the user, a
 * message delivered and verified, a clean stop within the grace period.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { podman } from "./podman";

// deploy/compose.yaml's stop_grace_period for each.
const GRACE_SECONDS = { web: 30, worker: 60 };

export async function until<T>(check: () => Promise<T | null | undefined | false>, what: string, seconds: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${seconds} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export type ImageReceiver = { port: number; received: { headers: IncomingMessage["headers"]; body: string }[]; close: () => void };

/** A customer's endpoint on this machine (on `host`): it keeps what it receives and answers 204. */
export async function startReceiver(host = "127.0.0.1"): Promise<ImageReceiver> {
  const received: ImageReceiver["received"] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  }).listen(0, host);
  await new Promise((resolve) => server.once("listening", resolve));
  return { port: (server.address() as AddressInfo).port, received, close: () => server.close() };
}

export async function healthy(container: string): Promise<boolean> {
  // No systemd here to run the HEALTHCHECK on its interval: run it now (exit 0 is healthy).
  const ok = await podman(["healthcheck", "run", container]).then(() => true, () => false);
  return ok && (await podman(["inspect", "--format", "{{.State.Health.Status}}", container])) === "healthy";
}

/** Each container's HEALTHCHECK healthy, its process not root. */
export async function checkRunning(containers: string[], say: (line: string) => void): Promise<void> {
  // Each check starts a process in the container: once a second, not to slow the start it waits for.
  for (const name of containers) await until(() => healthy(name), `${name}'s HEALTHCHECK`, 120, 1000);
  say(`${containers.join(", ")}: HEALTHCHECK healthy.`);
  for (const name of containers) {
    const [user, uid] = [await podman(["inspect", "--format", "{{.Config.User}}", name]), await podman(["exec", name, "id", "-u"])];
    if (user !== "node" || uid === "0") throw new Error(`${name} runs as ${user} (uid ${uid}), not the node user`);
  }
  say(`${containers.join(", ")}: running as the node user (uid 1000), not root.`);
}

/** The key `npm run cli -- api-key create` printed, run in a container of the image. */
export function apiKeyFrom(output: string): string {
  const key = /\bsk_\S+/.exec(output)?.[0];
  if (!key) throw new Error(`no API key in the CLI's output:\n${output}`);
  return key;
}

/**
 * Through the web's API on `webPort`: a consumer, an endpoint at `endpointUrl` (the receiver as
 * the containers reach it), one message — delivered by the worker and verified with standardwebhooks.
 */
export async function deliverAndVerify(o: { webPort: number; key: string; receiver: ImageReceiver; endpointUrl: string; consumer: string }): Promise<void> {
  const api = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${o.webPort}/api/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${o.key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  await api("POST", "/consumers", { uid: o.consumer, name: "Image test" });
  const endpoint = await api("POST", `/consumers/${o.consumer}/endpoints`, { url: o.endpointUrl });
  const secret = (await api("GET", `/endpoints/${endpoint.id as string}/secret`)).key as string;
  const before = o.receiver.received.length;
  await api("POST", "/messages", { consumer: o.consumer, event_type: "invoice.paid", payload: { amount: 42 } });
  const delivery = await until(async () => o.receiver.received[before], "the delivery", 60);
  const payload = new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
  if ((payload as { amount?: number }).amount !== 42) throw new Error(`delivered ${JSON.stringify(payload)}`);
}

/** `podman stop` with the container's grace period: how long it took and how the process ended. */
async function stop(container: string, grace: number) {
  const started = performance.now();
  await podman(["stop", "--time", String(grace), container]);
  const seconds = (performance.now() - started) / 1000;
  const exitCode = Number(await podman(["inspect", "--format", "{{.State.ExitCode}}", container]));
  return { seconds, exitCode };
}

/** Both stopped at once, each within its grace period with exit code 0. */
export async function stopCleanly(containers: { web: string; worker: string }, say: (line: string) => void): Promise<void> {
  const stopped = await Promise.all([stop(containers.web, GRACE_SECONDS.web), stop(containers.worker, GRACE_SECONDS.worker)]);
  for (const [role, { seconds, exitCode }] of [["web", stopped[0]], ["worker", stopped[1]]] as const) {
    say(`podman stop ${role}: exit code ${exitCode} after ${seconds.toFixed(1)} s (grace ${GRACE_SECONDS[role]} s).`);
    if (exitCode !== 0 || seconds >= GRACE_SECONDS[role]) throw new Error(`the ${role} did not stop cleanly within its grace period`);
  }
}

/** The last lines of each container's log, for a failure's report. */
export async function printLogs(containers: string[]): Promise<void> {
  for (const name of containers) {
    const logs = await podman(["logs", "--tail", "40", name]).catch(() => "");
    if (logs) console.log(`--- ${name} (last lines) ---\n${logs}`);
  }
}
