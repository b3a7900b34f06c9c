import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "svix";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createApiKey } from "../../lib/api-keys";
import { hasCredentials } from "../../lib/runtime/seed-demo";
import { freePort } from "../helpers/built-app";
import { runNode, startNode } from "../helpers/node-process";
import { startReceiver, waitFor } from "../helpers/receiver";
import { systemCtx } from "../../lib/open-ctx";

/**
 * The README's promise, end to end: `npm start` (its script, scripts/start.ts) builds and runs the
 * real web app and worker, prints a working API key, and a client using plain HTTP gets a message
 * delivered and verified with the official libraries. Ctrl-C stops everything.
 */
async function startProduct(env: Record<string, string | undefined>) {
  const port = await freePort();
  const child = startNode("scripts/start.ts", [], { env: { ...env, PORT: String(port), WORKER_METRICS_PORT: "0", LOG_LEVEL: "warn" } });
  await waitFor(
    () => {
      if (child.done()) throw new Error(`npm start exited early:\n${child.output()}`);
      return child.output().includes("Press Ctrl-C to stop.");
    },
    { timeout: 240_000, what: "npm start", onTimeout: () => console.log(child.output()) },
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.status === 200, { timeout: 60_000, what: "health" });
  const key = /API key:\s+(sk_\S+)/.exec(child.output())?.[1];
  return { base, key, output: child.output, stop: () => child.signal("SIGINT") };
}

const client = (base: string, key: string) => async (method: string, route: string, body?: unknown) => {
  const res = await fetch(`${base}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get("content-type"), body: (await res.json().catch(() => null)) as any };
};

/**
 * Through the real server: a method a route lacks is a problem+json 405, and a 1 GiB chunked body
 * to a route that takes none is a 413 after which the server closes the connection instead of
 * reading the rest. Returns the 413's status and how much of the body the client got to send.
 */
async function hostileClient(base: string, key: string) {
  const put = await fetch(`${base}/api/v1/consumers`, { method: "PUT", headers: { authorization: `Bearer ${key}` } });
  expect(put.status).toBe(405);
  expect(put.headers.get("content-type")).toBe("application/problem+json");
  expect(put.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  let pulled = 0;
  // Produced only as the connection takes it: what was pulled is what the server let in.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= 1024 ** 3) return controller.close();
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  // The server answers and closes while the client is still sending: the client reads the 413, or
  // (the race every server that stops reading has) its next write fails first.
  const answer = await fetch(`${base}/api/v1/endpoints/ep_none/enable`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body,
    duplex: "half",
  } as RequestInit).then(
    (res) => ({ status: res.status, connection: res.headers.get("connection") }),
    (error: { cause?: { code?: string } }) => ({ status: error.cause?.code, connection: "close" }),
  );
  return { ...answer, pulled };
}

async function walkThrough(base: string, key: string) {
  const call = client(base, key);
  const receiver = await startReceiver();
  try {
    expect((await call("POST", "/consumers", { uid: "customer_123", name: "Acme" })).status).toBe(201);
    const endpoint = await call("POST", "/consumers/customer_123/endpoints", { url: `${receiver.url}/webhooks` });
    expect(endpoint.status).toBe(201);
    const secret = (await call("GET", `/endpoints/${endpoint.body.id}/secret`)).body.key as string;
    const message = await call("POST", "/messages", { consumer: "customer_123", event_type: "invoice.paid", payload: { amount: 42 } });
    expect(message.status).toBe(202);
    await waitFor(() => receiver.received.length === 1, { timeout: 30_000, what: "delivery" });
    const got = receiver.received[0]!;
    expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toEqual({ amount: 42 });
    expect(new StandardWebhook(secret).verify(got.body, got.headers as Record<string, string>)).toEqual({ amount: 42 });
    await waitFor(async () => (await call("GET", `/messages/${message.body.id}/attempts`)).body.data.length === 1, { what: "attempt logged" });
    const bad = await call("POST", "/messages", { consumer: "customer_123" });
    expect(bad.status).toBe(422);
    expect(bad.type).toBe("application/problem+json");
    const unauthorized = await fetch(`${base}/api/v1/consumers`);
    expect(unauthorized.status).toBe(401);
    const openapi = await fetch(`${base}/api/v1/openapi.json`);
    expect(((await openapi.json()) as { openapi: string }).openapi).toBe("3.1.0");
    const hostile = await hostileClient(base, key);
    expect(hostile).toMatchObject({ status: expect.toBeOneOf([413, "EPIPE", "ECONNRESET"]), connection: "close" });
    // What the socket buffers took, not the gigabyte.
    expect(hostile.pulled).toBeLessThan(64 * 1024 ** 2);
  } finally {
    await receiver.close();
  }
}

/** A signed Standard Webhooks request to one of the demo's receivers, as the worker sends them. */
async function toReceiver(base: string, name: string, secret: string | null) {
  const body = JSON.stringify({ hello: "demo" });
  const id = `msg_probe_${name}`;
  const timestamp = new Date();
  const headers = {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": secret ? new StandardWebhook(secret).sign(id, timestamp, body) : "v1,AAAA",
  };
  const res = await fetch(`${base}/api/demo/receiver/${name}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  return { status: res.status, type: res.headers.get("content-type") };
}

async function listAll(call: ReturnType<typeof client>, route: string): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const page = await call("GET", `${route}${route.includes("?") ? "&" : "?"}limit=100${cursor ? `&cursor=${cursor}` : ""}`);
    expect(page.status).toBe(200);
    rows.push(...page.body.data);
    cursor = page.body.next_cursor ?? null;
  } while (cursor);
  return rows;
}

/**
 * What a new user sees after the embedded demo's first start: Acme Corp's three endpoints on the
 * app's own receivers, its messages delivered by the real worker — all to the healthy one, the
 * flaky one's 503s retried, the retired one's 410s raising endpoint.failing and then its
 * auto-disable, which cancels what it still owed — the charts' rollup, and receivers that refuse
 * a bad signature.
 */
async function demoFirstLook(base: string, key: string, output: () => string) {
  const call = client(base, key);
  const acme = await call("GET", "/consumers/acme");
  expect(acme.body).toMatchObject({ uid: "acme", name: "Acme Corp", alert_emails: ["ops@acme.example"] });
  const eventTypes = (await call("GET", "/event-types")).body.data.map((e: { name: string }) => e.name);
  expect(eventTypes).toEqual(expect.arrayContaining(["invoice.paid", "user.created", "subscription.canceled"]));
  const endpoints = (await call("GET", "/consumers/acme/endpoints")).body.data as { id: string; url: string }[];
  const byReceiver = Object.fromEntries(endpoints.map((e) => [e.url.split("/").at(-1)!, e]));
  expect(Object.keys(byReceiver).sort()).toEqual(["flaky", "ok", "retired"]);
  for (const endpoint of endpoints) expect(endpoint.url).toMatch(/^http:\/\/localhost:\d+\/api\/demo\/receiver\//);

  await waitFor(() => /Demo: 300 messages sent to Acme Corp/.test(output()), { timeout: 120_000, what: "demo traffic" });
  const messages = await listAll(call, "/messages?consumer=acme");
  expect(messages).toHaveLength(300);
  // Every message reaches the healthy receiver; the flaky one's refusals are retried and succeed.
  await waitFor(async () => (await call("GET", `/endpoints/${byReceiver.ok!.id}/stats`)).body.succeeded === 300, { timeout: 60_000, what: "the healthy endpoint's deliveries" }).catch(
    async (error: unknown) => {
      // Why, in the receiver's words: its last attempt.
      console.log("the healthy endpoint's last attempt:", JSON.stringify((await call("GET", `/attempts?endpoint_id=${byReceiver.ok!.id}&limit=1`)).body.data[0]));
      throw error;
    },
  );
  const flakyFailures = await listAll(call, `/attempts?endpoint_id=${byReceiver.flaky!.id}&status=failure`);
  expect(flakyFailures.length).toBeGreaterThan(0);
  expect(flakyFailures.every((a) => a.status_code === 503)).toBe(true);
  await waitFor(async () => (await call("GET", `/messages?consumer=acme&endpoint_id=${byReceiver.flaky!.id}&status=succeeded&limit=1`)).body.data.length === 1, { what: "a flaky success" });
  // The retired one: failing, then auto-disabled; what it still owed is canceled, ready to recover.
  await waitFor(async () => (await call("GET", `/endpoints/${byReceiver.retired!.id}`)).body.state === "auto_disabled", { timeout: 60_000, what: "auto-disable" });
  const retiredFailures = await listAll(call, `/attempts?endpoint_id=${byReceiver.retired!.id}&status=failure`);
  expect(retiredFailures.length).toBeGreaterThan(0);
  expect(retiredFailures.every((a) => a.status_code === 410)).toBe(true);
  expect((await call("GET", `/messages?consumer=acme&endpoint_id=${byReceiver.retired!.id}&status=canceled&limit=1`)).body.data).toHaveLength(1);
  await waitFor(async () => {
    const kinds = (await call("GET", `/alerts?endpoint_id=${byReceiver.retired!.id}`)).body.data.map((a: { kind: string }) => a.kind);
    return kinds.includes("endpoint.failing") && kinds.includes("endpoint.disabled");
  }, { timeout: 60_000, what: "the retired endpoint's alerts" });
  // The recovery scope covers active endpoints only: enable the retired one first, as the README says.
  expect((await call("POST", `/endpoints/${byReceiver.retired!.id}/enable`)).status).toBe(200);
  const scope = await call("POST", `/endpoints/${byReceiver.retired!.id}/recover`, { since: "2000-01-01T00:00:00Z", statuses: ["canceled"], dry_run: true });
  expect(scope.body.expected).toBeGreaterThan(0);
  // The charts' rollup has the traffic.
  const stats = (await call("GET", "/stats?consumer=acme&bucket=minute")).body.data as { attempts: number }[];
  expect(stats.reduce((sum, b) => sum + b.attempts, 0)).toBeGreaterThanOrEqual(300);
  // The receivers check signatures like a customer's should.
  const secret = (await call("GET", `/endpoints/${byReceiver.ok!.id}/secret`)).body.key as string;
  expect(await toReceiver(base, "ok", secret)).toEqual({ status: 200, type: "application/json" });
  expect(await toReceiver(base, "ok", null)).toEqual({ status: 401, type: "application/problem+json" });
  expect((await toReceiver(base, "nope", secret)).status).toBe(404);
}

describe("npm start", () => {
  it("runs the whole product on an embedded PostgreSQL and stops cleanly on Ctrl-C", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "wa-e2e-"));
    chmodSync(dataDir, 0o755);
    const demoEnv = {
      DATABASE_URL: undefined,
      WEBHOOK_ADMIN_DATA_DIR: dataDir,
      ENCRYPTION_KEY: undefined,
      AUTH_SECRET: undefined,
      ALLOW_PRIVATE_ENDPOINTS: undefined,
      ALLOW_HTTP_ENDPOINTS: undefined,
      ALLOWED_ENDPOINT_CIDRS: undefined,
      // The demo's own alert and auto-disable rules, shrunk further so the test sees them soon.
      DELIVERY_SCHEDULE: "0,1s,5m",
      ALERT_FAILING_AFTER: "2s",
      ENDPOINT_DISABLE_AFTER: "8s",
      CIRCUIT_OPEN_FOR: "1s",
    };
    const product = await startProduct(demoEnv);
    try {
      expect(product.output()).toContain("Embedded PostgreSQL is running");
      expect(product.output()).toMatch(/Operator login:\s+admin@example\.com \/ \S+/);
      expect(product.key).toMatch(/^sk_/);
      await demoFirstLook(product.base, product.key!, product.output);
      await walkThrough(product.base, product.key!);
      // The demo reaches loopback (the receiver above) and nothing else inward: not the metadata
      // service, not a private network.
      const call = client(product.base, product.key!);
      for (const url of ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/hooks", "http://[fd00::1]/"]) {
        const refused = await call("POST", "/consumers/customer_123/endpoints", { url });
        expect(refused.status, url).toBe(422);
        expect(refused.body.code).toBe("endpoint_url_forbidden");
      }
      // The demo keeps a session secret of its own beside its data, and the dashboard works with it.
      expect(readFileSync(path.join(dataDir, "auth-secret"), "utf8").trim().length).toBeGreaterThanOrEqual(32);
      expect((await fetch(`${product.base}/login`)).status).toBe(200);
      expect((await fetch(`${product.base}/`, { redirect: "manual" })).headers.get("location")).toMatch(/\/login$/);
    } finally {
      expect(await product.stop()).toBe(0);
    }
    expect(product.output()).toContain("Stopped.");
    // A second start seeds nothing: no login, no key, no demo traffic.
    const again = await startProduct(demoEnv);
    try {
      expect(again.output()).not.toMatch(/First start|Demo:/);
      const consumers = (await client(again.base, product.key!)("GET", "/consumers")).body.data.map((c: { uid: string }) => c.uid);
      expect(consumers.filter((uid: string) => uid === "acme")).toHaveLength(1);
    } finally {
      expect(await again.stop()).toBe(0);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 480_000);

  it("refuses to start against DATABASE_URL without AUTH_SECRET, naming it", async () => {
    const { code, output } = await runNode("scripts/start.ts", [], { env: { AUTH_SECRET: undefined } });
    expect(code).toBe(1);
    expect(output).toContain("AUTH_SECRET: required with DATABASE_URL");
  }, 60_000);

  it("uses DATABASE_URL when it is set, and prints how to create a login and a key instead of creating them", async () => {
    const product = await startProduct({});
    try {
      expect(product.output()).not.toContain("Embedded PostgreSQL");
      expect(product.output()).toContain("npm run cli -- operator create --email E --password P");
      expect(product.output()).toContain("npm run cli -- api-key create --name NAME");
      // No credential in the process log, and none in the database either.
      expect(product.key).toBeUndefined();
      expect(product.output()).not.toMatch(/sk_[A-Za-z0-9_-]{20}|Operator login/);
      expect(await hasCredentials(systemCtx())).toBe(false);
      const { key } = await createApiKey({ ctx: systemCtx(), input: { name: "e2e" } });
      await walkThrough(product.base, key);
      // No demo with DATABASE_URL: no demo consumer, and its receivers are not served.
      expect((await client(product.base, key)("GET", "/consumers/acme")).status).toBe(404);
      expect(await toReceiver(product.base, "ok", null)).toEqual({ status: 404, type: "application/problem+json" });
    } finally {
      expect(await product.stop()).toBe(0);
    }
  }, 300_000);
});
