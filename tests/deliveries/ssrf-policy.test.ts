import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { parseConfig, resetConfigForTests } from "../../lib/config";
import { getDb } from "../../lib/db/client";
import { attempts } from "../../lib/db/schema";
import { DEMO_DEFAULTS } from "../../lib/runtime/demo-defaults";
import { postWebhook } from "../../lib/webhooks/egress";
import { urlPolicy } from "../../lib/webhooks/policy";
import { apiClient, type Api } from "../helpers/api";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker, withWorkerEnv } from "../helpers/worker";

/**
 * The operator's URL policy — the embedded demo's loopback-only default, ALLOWED_ENDPOINT_CIDRS,
 * ALLOW_HTTP_ENDPOINTS — decided alike when an endpoint is created and when the worker sends.
 */
process.env.DELIVERY_SCHEDULE = "0";

let api: Api;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let seq = 0;

/** The embedded demo's environment: the test setup's ALLOW_PRIVATE_ENDPOINTS=true is not in it. */
const DEMO_ENV = { ...DEMO_DEFAULTS, ALLOW_PRIVATE_ENDPOINTS: "false" };

beforeAll(async () => {
  api = await apiClient();
  worker = await startTestWorker();
  receiver = await startReceiver();
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
});

/** Runs `fn` with the web side's configuration read from `env` (the worker keeps its own). */
async function withApiEnv(env: Record<string, string>, fn: () => Promise<void>) {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  resetConfigForTests();
  try {
    await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfigForTests();
  }
}

async function consumer() {
  const uid = `ssrf-${++seq}`;
  expect((await api.post("/api/v1/consumers", { uid, name: uid })).status).toBe(201);
  return uid;
}

const createEndpoint = (uid: string, url: string) => api.post(`/api/v1/consumers/${uid}/endpoints`, { url });

async function sendAndWaitForAttempt(uid: string) {
  const message = await api.post("/api/v1/messages", { consumer: uid, event_type: "invoice.paid", payload: { n: 1 } });
  expect(message.status).toBe(202);
  return waitFor(async () => (await getDb().select().from(attempts).where(eq(attempts.messageId, message.body.id)))[0], { what: "the attempt" });
}

describe("the embedded demo's policy: loopback only", () => {
  it("refuses metadata and private addresses at create time and accepts loopback", async () => {
    const uid = await consumer();
    await withApiEnv(DEMO_ENV, async () => {
      for (const url of ["http://169.254.169.254/latest/meta-data/", "https://10.0.0.1/hooks", "http://192.168.1.10/", "http://[fd00::1]/"]) {
        const res = await createEndpoint(uid, url);
        expect(res.status, url).toBe(422);
        expect(res.body.code).toBe("endpoint_url_forbidden");
      }
      for (const url of [`${receiver.url}/a`, `http://localhost:${receiver.port}/b`, `http://[::1]:${receiver.port}/c`]) {
        expect((await createEndpoint(uid, url)).status, url).toBe(201);
      }
    });
  });

  it("refuses them at send time too, when a name resolves to them", async () => {
    const policy = urlPolicy(parseConfig({ ...process.env, ...DEMO_ENV }));
    for (const address of ["169.254.169.254", "10.0.0.1"]) {
      const result = await postWebhook({
        url: `http://hooks.customer.example:${receiver.port}/`,
        headers: {},
        body: "{}",
        timeoutMs: 2000,
        bodyLimit: 1024,
        policy: { ...policy, resolve: async () => [address] },
      });
      expect(result.error, address).toBe("forbidden_address");
    }
    expect(receiver.received).toHaveLength(0);
  });

  it("has the worker refuse an endpoint that got in under a wider policy, and deliver to loopback", async () => {
    const uid = await consumer();
    // Accepted while ALLOW_PRIVATE_ENDPOINTS was on (the test setup's default).
    const inward = await createEndpoint(uid, "http://10.0.0.1:9/hooks");
    const loopback = await createEndpoint(uid, `http://localhost:${receiver.port}/loopback`);
    expect([inward.status, loopback.status]).toEqual([201, 201]);
    worker = await withWorkerEnv(worker, DEMO_ENV, async () => {
      const message = await api.post("/api/v1/messages", { consumer: uid, event_type: "invoice.paid", payload: { n: 1 } });
      const tried = await waitFor(
        async () => {
          const rows = await getDb().select().from(attempts).where(eq(attempts.messageId, message.body.id));
          return rows.length === 2 ? rows : null;
        },
        { what: "both attempts" },
      );
      const of = (endpoint: { body: { id: string } }) => tried.find((a) => a.endpointId === endpoint.body.id);
      expect(of(inward)).toMatchObject({ statusCode: null, error: "forbidden_address" });
      expect(of(loopback)).toMatchObject({ statusCode: 204, error: null });
      expect(receiver.received.map((r) => r.path)).toEqual(["/loopback"]);
    });
  });
});

describe("ALLOWED_ENDPOINT_CIDRS", () => {
  const env = { ALLOW_PRIVATE_ENDPOINTS: "false", ALLOWED_ENDPOINT_CIDRS: "10.20.0.0/16,127.0.0.0/8" };

  it("accepts a literal address inside an allowed range at create time, and nothing outside it", async () => {
    const uid = await consumer();
    await withApiEnv(env, async () => {
      expect((await createEndpoint(uid, "https://10.20.3.4/hooks")).status).toBe(201);
      expect((await createEndpoint(uid, "https://[::ffff:10.20.3.4]/hooks")).status).toBe(201);
      for (const url of ["https://10.21.0.1/hooks", "https://169.254.169.254/", "https://192.168.0.1/"]) {
        expect((await createEndpoint(uid, url)).body.code, url).toBe("endpoint_url_forbidden");
      }
    });
  });

  it("lets the worker deliver inside an allowed range", async () => {
    const uid = await consumer();
    let endpointStatus = 0;
    await withApiEnv(env, async () => {
      endpointStatus = (await createEndpoint(uid, `${receiver.url}/allowed`)).status;
    });
    expect(endpointStatus).toBe(201);
    worker = await withWorkerEnv(worker, env, async () => {
      expect(await sendAndWaitForAttempt(uid)).toMatchObject({ statusCode: 204, error: null });
    });
    expect(receiver.received.filter((r) => r.path === "/allowed")).toHaveLength(1);
  });
});

describe("ALLOW_HTTP_ENDPOINTS turned off", () => {
  it("stops http:// endpoints accepted before at send time, as an attempt with a stable error kind", async () => {
    const uid = await consumer();
    expect((await createEndpoint(uid, `${receiver.url}/plain`)).status).toBe(201);
    worker = await withWorkerEnv(worker, { ALLOW_HTTP_ENDPOINTS: "false" }, async () => {
      const attempt = await sendAndWaitForAttempt(uid);
      expect(attempt).toMatchObject({ statusCode: null, error: "http_not_allowed" });
      expect(attempt.errorDetail).toMatch(/ALLOW_HTTP_ENDPOINTS/);
    });
    expect(receiver.received.filter((r) => r.path === "/plain")).toHaveLength(0);
  });
});
