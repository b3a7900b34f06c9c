import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { beforeAll, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { getDb, getSql } from "../../lib/db/client";
import { attempts, auditEvents, deliveries } from "../../lib/db/schema";
import { apiClient, type Api } from "../helpers/api";
import { holdTransaction } from "../helpers/held-transaction";
import { startReceiver, waitFor, type Received } from "../helpers/receiver";
import { withEnv } from "../helpers/env";
import { runTestWorker, startTestWorker, withWorkerEnv } from "../helpers/worker";
import { spawnWorker } from "../helpers/worker-process";
import { consumerWithEndpoint, sendMessage, sendMessages } from "../helpers/fixtures";

process.env.DELIVERY_SCHEDULE = "0,100ms,100ms,100ms,100ms,100ms,100ms,100ms";
process.env.DELIVERY_TIMEOUT = "4s";
process.env.CIRCUIT_OPEN_FOR = "1s";

let api: Api;
beforeAll(async () => {
  api = await apiClient();
});

const sendMany = (uid: string, n: number) => sendMessages(api, uid, n, "load.test");

const slow = (ms: number) => (_req: unknown, res: { writeHead: (n: number) => { end: () => void } }) =>
  setTimeout(() => res.writeHead(200).end(), ms);

describe("per-endpoint concurrency", () => {
  const worker = runTestWorker();

  /**
   * `n` messages queued while no worker runs, so the worker finds the whole backlog due at once:
   * how many attempts it then keeps in flight depends on the limits alone, not on how fast this
   * machine happened to ingest.
   */
  async function backlog(uid: string, n: number) {
    await worker.current.stop();
    await sendMany(uid, n);
    worker.current = await startTestWorker();
  }

  it("never has more than max_concurrency attempts in flight (cap 3, 30 messages)", async () => {
    const receiver = await startReceiver(slow(200));
    const { uid } = await consumerWithEndpoint(api, receiver.url, { endpoint: { max_concurrency: 3 } });
    await backlog(uid, 30);
    await waitFor(() => receiver.received.length === 30, { timeout: 60_000, what: "30 deliveries" });
    expect(receiver.maxInFlight).toBe(3);
    await receiver.close();
  });

  it("applies the default cap of 10 (80 messages)", async () => {
    const receiver = await startReceiver(slow(300));
    const { uid } = await consumerWithEndpoint(api, receiver.url);
    await backlog(uid, 80);
    await waitFor(() => receiver.received.length === 80, { timeout: 60_000, what: "80 deliveries" });
    expect(receiver.maxInFlight).toBe(10);
    await receiver.close();
  });

  it("keeps at most DELIVERY_MAX_IN_FLIGHT attempts open in one worker", async () => {
    const receiver = await startReceiver(slow(300));
    const { uid } = await consumerWithEndpoint(api, receiver.url, { endpoint: { max_concurrency: 50 } });
    worker.current = await withWorkerEnv(
      worker.current,
      { DELIVERY_MAX_IN_FLIGHT: "4" },
      async () => {
        await waitFor(() => receiver.received.length === 30, { timeout: 60_000, what: "deliveries" });
        expect(receiver.maxInFlight).toBe(4);
      },
      () => sendMany(uid, 30).then(() => {}),
    );
    await receiver.close();
  });

  it("claims again soon a delivery whose endpoint row another transaction held, not at the minute sweep", async () => {
    const receiver = await startReceiver();
    const { uid, endpointId: id } = await consumerWithEndpoint(api, receiver.url);
    // As an outcome write or another process's claim would: the claim skips the endpoint.
    // (NO KEY UPDATE, so the ingest's foreign-key check is not blocked too.)
    const hold = await holdTransaction((tx) => tx`select 1 from endpoints where id = ${id} for no key update`);
    await sendMany(uid, 1);
    await new Promise((r) => setTimeout(r, 600));
    await hold.commit();
    expect(receiver.received).toHaveLength(0);
    // A 100 ms retry; the sweep, which would also find it, runs once a minute. The 30 s are a loaded
    // machine's claim and send, still half that minute.
    await waitFor(() => receiver.received.length === 1, { timeout: 30_000, what: "the delivery after the lock ended" });
    await receiver.close();
  });

  it("keeps a hung endpoint from slowing deliveries to a healthy one on the same host", async () => {
    // One receiver, two endpoints with the default cap of 10: requests under /hung are never
    // answered. Sharing an origin is the hard case — connection pools are per origin unless
    // endpoints get their own.
    const receiver = await startReceiver((req, res) => {
      if (!req.url!.startsWith("/hung")) res.writeHead(204).end();
    });
    const a = await consumerWithEndpoint(api, `${receiver.url}/hung`);
    const b = await consumerWithEndpoint(api, `${receiver.url}/ok`);
    const toHung = () => receiver.received.filter((r) => r.path.startsWith("/hung")).length;
    const toHealthy = () => receiver.received.filter((r) => r.path.startsWith("/ok")).length;
    // First a burst, so the worker holds many open connections to this host (as after any busy
    // period); it was after such a burst that a shared pool queued healthy requests behind hung ones.
    await sendMany(b.uid, 300);
    await waitFor(() => toHealthy() === 300, { timeout: 60_000, what: "warm-up" });
    // A backlog, interleaved as real traffic is, so claimed batches mix both endpoints and the
    // healthy one needs its slots back many times over: a slot must free when its own POST ends,
    // not when the hung one claimed beside it does. The hung attempts are cut only at a deadline
    // longer than this test waits, so "the healthy ones went first" is an order of events.
    worker.current = await withWorkerEnv(
      worker.current,
      { DELIVERY_TIMEOUT: "90s" },
      async () => {
        try {
          await waitFor(() => toHealthy() === 360, { timeout: 60_000, what: "healthy deliveries" });
          // Every healthy delivery went through while the hung endpoint still held all its slots:
          // none of its attempts had ended.
          const hungAttempts = await getDb().select().from(attempts).where(eq(attempts.endpointId, a.endpointId));
          expect(hungAttempts).toHaveLength(0);
          expect(toHung()).toBeLessThanOrEqual(10);
        } finally {
          // Ends the hung requests, so the worker can stop.
          await receiver.close();
        }
      },
      () =>
        Promise.all(
          Array.from({ length: 120 }, (_, i) =>
            sendMessage(api, i % 2 ? a.uid : b.uid, { event_type: "mixed", payload: { i } }),
          ),
        ).then(() => {}),
    );
  }, 180_000);
});

describe("with two worker processes", () => {
  it("holds the cap and the rate limit across both", async () => {
    const workers = [await spawnWorker(), await spawnWorker()];
    try {
      const capped = await startReceiver(slow(50));
      const { uid } = await consumerWithEndpoint(api, capped.url, { endpoint: { max_concurrency: 3 } });
      await sendMany(uid, 30);
      await waitFor(() => capped.received.length === 30, { timeout: 60_000, what: "capped deliveries" });
      expect(capped.maxInFlight).toBeLessThanOrEqual(3);

      const limited = await startReceiver();
      const rate = await consumerWithEndpoint(api, limited.url, { endpoint: { rate_limit_per_second: 20 } });
      await sendMany(rate.uid, 260);
      await waitFor(() => limited.received.length === 260, { timeout: 90_000, what: "rate-limited deliveries" });
      const times = limited.received.map((r) => r.at).sort((x, y) => x - y);
      // The limit holds per second of the database's clock. Any 10 s of arrivals can overlap 11 of
      // those seconds (220), and arrival here lags the claim by a moment that varies with the load:
      // at most 240 allows one more second of it. A limit per worker (40/s) would put every one of
      // the 260 inside 10 s, and the whole run takes at least 12 s, however fast the machine.
      let worst = 0;
      for (let i = 0, j = 0; i < times.length; i++) {
        while (times[i]! - times[j]! >= 10_000) j++;
        worst = Math.max(worst, i - j + 1);
      }
      expect(worst).toBeLessThanOrEqual(240);
      expect(times[times.length - 1]! - times[0]!).toBeGreaterThan(11_000);
      await Promise.all([capped.close(), limited.close()]);
    } finally {
      await Promise.all(workers.map((w) => w.kill()));
    }
  }, 240_000);
});

describe("circuit breaker", () => {
  runTestWorker();

  it("opens after exactly 5 failures, pauses, sends one probe, and per its outcome reopens or closes", async () => {
    // Requests 1–5 fail and open the circuit, request 6 (the first probe) fails too; then success.
    const receiver = await startReceiver((_req, res, _body, i) => res.writeHead(i < 6 ? 500 : 200).end());
    const ep = await consumerWithEndpoint(api, receiver.url, { endpoint: { max_concurrency: 1 } });
    await sendMany(ep.uid, 8);
    const log = await waitFor(
      async () => {
        const rows = await getDb().select().from(attempts).where(eq(attempts.endpointId, ep.endpointId)).orderBy(asc(attempts.createdAt), asc(attempts.id));
        return rows.length >= 7 ? rows : null;
      },
      { timeout: 30_000, what: "seven attempts logged" },
    );
    // Five failures, then nothing but the probe: a sixth scheduled attempt made while the circuit
    // was open would stand in the log before it. One attempt at a time (cap 1), so the log's order
    // is the order they were made.
    expect(log.slice(0, 5).every((a) => a.trigger === "scheduled" && !a.success)).toBe(true);
    expect(log[5]).toMatchObject({ trigger: "probe", success: false });
    expect(log[6]).toMatchObject({ trigger: "probe", success: true });
    // Each probe came only once the circuit's second had passed: after the fifth failure, and
    // again after the failed probe. (Lower bounds: a slow machine only makes the gaps longer.)
    const at = receiver.received.map((r) => r.at);
    expect(at[5]! - at[4]!).toBeGreaterThanOrEqual(950);
    expect(at[6]! - at[5]!).toBeGreaterThanOrEqual(950);
    // Closed: the backlog (8 messages, each retried until success) drains.
    await waitFor(async () => {
      const rows = await getDb().select().from(deliveries).where(eq(deliveries.endpointId, ep.endpointId));
      return rows.every((d) => d.status === "succeeded");
    }, { timeout: 30_000, what: "backlog drained" });
    // Waiting while the circuit was open used up none of the schedule: the 8-step schedule spans
    // 0.7 s, the circuit stayed open over 2 s, and still every delivery succeeded; each scheduled
    // step taken is an attempt actually made.
    const rows = await getDb().select().from(deliveries).where(eq(deliveries.endpointId, ep.endpointId));
    const made = await getDb().select().from(attempts).where(eq(attempts.endpointId, ep.endpointId));
    expect(rows.reduce((sum, d) => sum + d.scheduledAttempts, 0)).toBe(made.length);
    const endpoint = await api.get(`/api/v1/endpoints/${ep.endpointId}`);
    expect(endpoint.body).toMatchObject({ state: "active", failing_since: null });
    await receiver.close();
  });
});

describe("auto-disable", () => {
  it("disables an endpoint failing with no success for ENDPOINT_DISABLE_AFTER; enable resets it", async () => {
    const env = {
      ENDPOINT_DISABLE_AFTER: "1s",
      CIRCUIT_FAILURE_THRESHOLD: "1000",
      // Retries span well past the limit (2.8 s at the least), so the delivery is still pending when the endpoint goes.
      DELIVERY_SCHEDULE: "0,400ms,400ms,400ms,400ms,400ms,400ms,400ms",
    };
    await withEnv(env, async () => {
      const worker = await startTestWorker();
      try {
        const receiver = await startReceiver((_req, res) => res.writeHead(503).end());
        const ep = await consumerWithEndpoint(api, receiver.url);
        const [first] = await sendMany(ep.uid, 1);
        await waitFor(async () => (await api.get(`/api/v1/endpoints/${ep.endpointId}`)).body.state === "auto_disabled", { timeout: 30_000, what: "auto-disable" });
        const endpoint = (await api.get(`/api/v1/endpoints/${ep.endpointId}`)).body;
        expect(endpoint.disabled_reason).toMatch(/no successful delivery for 1s/);
        expect(endpoint.failing_since).not.toBeNull();
        // Canceled in the disabling transaction — or, when a retry was in flight then (a busy
        // machine), by the next claim once that attempt's outcome is in (cancel-pending.sql).
        const delivery = async () => (await getDb().select().from(deliveries).where(eq(deliveries.messageId, first!)))[0]!;
        await waitFor(async () => (await delivery()).status === "canceled", { what: "the pending delivery canceled" });
        expect(["endpoint_auto_disabled", "endpoint_not_active"]).toContain((await delivery()).lastError);
        const events = await getDb().select().from(auditEvents).where(eq(auditEvents.targetId, ep.endpointId));
        expect(events.map((e) => e.action)).toContain("endpoint.auto_disabled");
        // A new message is not delivered to an auto-disabled endpoint.
        const before = receiver.received.length;
        expect((await sendMessage(api, ep.uid, { event_type: "x.y", payload: {} })).deliveries).toBe(0);
        const enabled = await api.post(`/api/v1/endpoints/${ep.endpointId}/enable`);
        expect(enabled.body).toMatchObject({ state: "active", disabled_reason: null, failing_since: null });
        receiver.setHandler((_req, res) => res.writeHead(200).end());
        await sendMessage(api, ep.uid, { event_type: "x.y", payload: {} });
        await waitFor(() => receiver.received.length === before + 1, { what: "delivery after enable" });
        await receiver.close();
      } finally {
        await worker.stop();
      }
    });
  });
});

/** When the endpoint's rotated-out secret stops signing, with the database's clock beside it. */
async function rotatedOut(endpointId: string) {
  const [row] = await getSql()<{ expires_at: Date; now: Date }[]>`
    select expires_at, now() as now from endpoint_secrets where endpoint_id = ${endpointId} and expires_at is not null`;
  return row!;
}

describe("secret rotation", () => {
  const verifies = (key: string, r: Received) => {
    const headers = r.headers as Record<string, string>;
    const both = [() => new StandardWebhook(key).verify(r.body, headers), () => new SvixWebhook(key).verify(r.body, headers)];
    const results = both.map((verify) => {
      try {
        verify();
        return true;
      } catch {
        return false;
      }
    });
    expect(results[0], "both libraries agree").toBe(results[1]);
    return results[0];
  };
  const signatures = (r: Received) => String(r.headers["webhook-signature"]).split(" ").length;

  it("signs with old and new keys for SECRET_ROTATION_OVERLAP after a rotation", async () => {
    const worker = await startTestWorker();
    try {
      const receiver = await startReceiver();
      const ep = await consumerWithEndpoint(api, receiver.url);
      const oldKey = (await api.get(`/api/v1/endpoints/${ep.endpointId}/secret`)).body.key;
      const before = Date.now();
      const newKey = (await withEnv({ SECRET_ROTATION_OVERLAP: "1h" }, () => api.post(`/api/v1/endpoints/${ep.endpointId}/secret/rotate`))).body.key;
      const after = Date.now();
      // The old key expires one overlap after the rotation.
      const { expires_at } = await rotatedOut(ep.endpointId);
      expect(expires_at.getTime()).toBeGreaterThanOrEqual(before + 3_600_000);
      expect(expires_at.getTime()).toBeLessThanOrEqual(after + 3_600_000);
      // Within the overlap (an hour of it: however slow the machine), both keys sign.
      await sendMany(ep.uid, 1);
      await waitFor(() => receiver.received.length === 1);
      const during = receiver.received[0]!;
      expect(signatures(during)).toBe(2);
      expect(verifies(oldKey, during)).toBe(true);
      expect(verifies(newKey, during)).toBe(true);
      await receiver.close();
    } finally {
      await worker.stop();
    }
  });

  it("signs with the new key only once the overlap has passed", async () => {
    const worker = await startTestWorker();
    try {
      const receiver = await startReceiver();
      const ep = await consumerWithEndpoint(api, receiver.url);
      const oldKey = (await api.get(`/api/v1/endpoints/${ep.endpointId}/secret`)).body.key;
      const newKey = (await withEnv({ SECRET_ROTATION_OVERLAP: "300ms" }, () => api.post(`/api/v1/endpoints/${ep.endpointId}/secret/rotate`))).body.key;
      // The overlap really passes: by the database's clock, which the claim reads the expiry with.
      await waitFor(async () => {
        const { expires_at, now } = await rotatedOut(ep.endpointId);
        return now.getTime() > expires_at.getTime();
      }, { what: "the overlap to pass" });
      await sendMany(ep.uid, 1);
      await waitFor(() => receiver.received.length === 1);
      const after = receiver.received[0]!;
      expect(signatures(after)).toBe(1);
      expect(verifies(newKey, after)).toBe(true);
      expect(verifies(oldKey, after)).toBe(false);
      await receiver.close();
    } finally {
      await worker.stop();
    }
  });
});
