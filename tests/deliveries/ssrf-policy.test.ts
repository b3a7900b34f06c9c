import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { parseConfig } from "../../lib/config";
import { getDb } from "../../lib/db/client";
import { attempts } from "../../lib/db/schema";
import { DEMO_DEFAULTS } from "../../lib/runtime/demo-defaults";
import { postWebhook } from "../../lib/webhooks/egress";
import { urlPolicy } from "../../lib/webhooks/policy";
import { apiClient, type Api } from "../helpers/api";
import { withEnv } from "../helpers/env";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { runReceiver, waitFor } from "../helpers/receiver";
import { runTestWorker, withWorkerEnv } from "../helpers/worker";

/**
 * The operator's URL policy — the embedded demo's loopback-only default, ALLOWED_ENDPOINT_CIDRS,
 * ALLOW_HTTP_ENDPOINTS — decided alike when an endpoint is created and when the worker sends.
 */
process.env.DELIVERY_SCHEDULE = "0";

let api: Api;

/** The embedded demo's environment: the test setup's ALLOW_PRIVATE_ENDPOINTS=true is not in it. */
const DEMO_ENV = { ...DEMO_DEFAULTS, ALLOW_PRIVATE_ENDPOINTS: "false" };

beforeAll(async () => {
  api = await apiClient();
});
const receiver = runReceiver();
const worker = runTestWorker();

const consumer = async () => (await createConsumer(api, {}, "ssrf")).uid;

/** The answer to creating an endpoint, where the policy deciding it is the subject. */
const postEndpoint = (uid: string, url: string) => api.post(`/api/v1/consumers/${uid}/endpoints`, { url });

async function sendAndWaitForAttempt(uid: string) {
  const message = await sendMessage(api, uid, { payload: { n: 1 } });
  return waitFor(async () => (await getDb().select().from(attempts).where(eq(attempts.messageId, message.id)))[0], { what: "the attempt" });
}

describe("the embedded demo's policy: loopback only", () => {
  it("refuses metadata and private addresses at create time and accepts loopback", async () => {
    const uid = await consumer();
    await withEnv(DEMO_ENV, async () => {
      for (const url of ["http://169.254.169.254/latest/meta-data/", "https://10.0.0.1/hooks", "http://192.168.1.10/", "http://[fd00::1]/"]) {
        const res = await postEndpoint(uid, url);
        expect(res.status, url).toBe(422);
        expect(res.body.code).toBe("endpoint_url_forbidden");
      }
      for (const url of [`${receiver.url}/a`, `http://localhost:${receiver.port}/b`, `http://[::1]:${receiver.port}/c`]) {
        expect((await postEndpoint(uid, url)).status, url).toBe(201);
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
    const inward = await createEndpoint(api, uid, "http://10.0.0.1:9/hooks");
    const loopback = await createEndpoint(api, uid, `http://localhost:${receiver.port}/loopback`);
    worker.current = await withWorkerEnv(worker.current, DEMO_ENV, async () => {
      const message = await sendMessage(api, uid, { payload: { n: 1 } });
      const tried = await waitFor(
        async () => {
          const rows = await getDb().select().from(attempts).where(eq(attempts.messageId, message.id));
          return rows.length === 2 ? rows : null;
        },
        { what: "both attempts" },
      );
      const of = (endpoint: { id: string }) => tried.find((a) => a.endpointId === endpoint.id);
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
    await withEnv(env, async () => {
      expect((await postEndpoint(uid, "https://10.20.3.4/hooks")).status).toBe(201);
      expect((await postEndpoint(uid, "https://[::ffff:10.20.3.4]/hooks")).status).toBe(201);
      for (const url of ["https://10.21.0.1/hooks", "https://169.254.169.254/", "https://192.168.0.1/"]) {
        expect((await postEndpoint(uid, url)).body.code, url).toBe("endpoint_url_forbidden");
      }
    });
  });

  it("lets the worker deliver inside an allowed range", async () => {
    const uid = await consumer();
    // Accepted under the policy itself: the worker is not looking at an endpoint from a wider one.
    await withEnv(env, () => createEndpoint(api, uid, `${receiver.url}/allowed`));
    worker.current = await withWorkerEnv(worker.current, env, async () => {
      expect(await sendAndWaitForAttempt(uid)).toMatchObject({ statusCode: 204, error: null });
    });
    expect(receiver.received.filter((r) => r.path === "/allowed")).toHaveLength(1);
  });
});

describe("ALLOW_HTTP_ENDPOINTS turned off", () => {
  it("stops http:// endpoints accepted before at send time, as an attempt with a stable error kind", async () => {
    const uid = await consumer();
    await createEndpoint(api, uid, `${receiver.url}/plain`);
    worker.current = await withWorkerEnv(worker.current, { ALLOW_HTTP_ENDPOINTS: "false" }, async () => {
      const attempt = await sendAndWaitForAttempt(uid);
      expect(attempt).toMatchObject({ statusCode: null, error: "http_not_allowed" });
      expect(attempt.errorDetail).toMatch(/ALLOW_HTTP_ENDPOINTS/);
    });
    expect(receiver.received.filter((r) => r.path === "/plain")).toHaveLength(0);
  });
});
