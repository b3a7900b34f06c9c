import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb, getSql } from "../../lib/db/client";
import { attempts, deliveries, messages } from "../../lib/db/schema";
import { apiClient, type Api } from "../helpers/api";
import { startReceiver, waitFor } from "../helpers/receiver";
import { withEnv } from "../helpers/env";
import { runTestWorker } from "../helpers/worker";
import { consumerWithEndpoint, createEndpoint, endpointSecret, sendMessage } from "../helpers/fixtures";

// Eight attempts, as in production, with gaps of test size.
process.env.DELIVERY_SCHEDULE = "0,150ms,300ms,150ms,150ms,150ms,150ms,150ms";
// Far above a loaded machine's stalls (at 700 ms, a stall that long turns a 204 into a timeout and
// an exact count of attempts wrong), far below undici's and receivers' own 5 minutes.
process.env.DELIVERY_TIMEOUT = "5s";
// The breaker has its own tests (endpoint-health); here it must not interrupt the schedule.
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";

let api: Api;

beforeAll(async () => {
  api = await apiClient();
});
runTestWorker();

async function setup(url: string, endpoint: Record<string, unknown> = {}) {
  const { uid, endpointId } = await consumerWithEndpoint(api, url, { endpoint, prefix: "c" });
  return { uid, endpointId, secret: await endpointSecret(api, endpointId) };
}

const send = async (uid: string, payload: Record<string, unknown> = { hello: "world" }, eventType = "invoice.paid") =>
  (await sendMessage(api, uid, { event_type: eventType, payload })) as { id: string; consumer_id: string; deliveries: number };

const deliveryOf = async (messageId: string) =>
  (await getDb().select().from(deliveries).where(eq(deliveries.messageId, messageId)))[0]!;

/** The message's deliveries still in the queue: with none, no further attempt can be made. */
const queued = async (messageId: string) =>
  (await getSql()<{ n: number }[]>`
    select count(*)::int as n from delivery_queue q join deliveries d on d.id = q.delivery_id where d.message_id = ${messageId}`)[0]!.n;

describe("delivery", () => {
  it("POSTs the exact payload, signed so both official libraries verify it", async () => {
    const receiver = await startReceiver();
    const { uid, secret } = await setup(`${receiver.url}/hook`, { headers: { "X-Team": "billing" } });
    const payload = { amount: 4200, currency: "EUR", nested: { ok: true, list: [1, "two"] }, text: "é ✓" };
    const message = await send(uid, payload);
    expect(message.deliveries).toBe(1);
    await waitFor(() => receiver.received.length === 1, { what: "delivery" });
    const got = receiver.received[0]!;
    expect(got.headers["webhook-id"]).toBe(message.id);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["user-agent"]).toMatch(/^WebhookAdmin\//);
    expect(got.headers["x-team"]).toBe("billing");
    // Stamped when the attempt was made: next to when it arrived, not to when this line runs.
    expect(Math.abs(Number(got.headers["webhook-timestamp"]) - got.at / 1000)).toBeLessThan(5);
    expect(JSON.parse(got.body)).toEqual(payload);
    const headers = got.headers as Record<string, string>;
    expect(new StandardWebhook(secret).verify(got.body, headers)).toEqual(payload);
    expect(new SvixWebhook(secret).verify(got.body, headers)).toEqual(payload);
    const stored = (await getDb().select().from(messages).where(eq(messages.id, message.id)))[0]!;
    expect(stored.payload).toBe(got.body);

    await waitFor(async () => (await deliveryOf(message.id)).status === "succeeded", { what: "succeeded" });
    const read = await api.get(`/api/v1/messages/${message.id}`);
    expect(read.body).toMatchObject({ id: message.id, payload, deliveries: [{ status: "succeeded", attempts: 1, last_status_code: 204, next_attempt_at: null }] });
    const logged = await api.get(`/api/v1/messages/${message.id}/attempts`);
    expect(logged.body.data).toHaveLength(1);
    expect(logged.body.data[0]).toMatchObject({ attempt_number: 1, trigger: "scheduled", status_code: 204, error: null, success: true });
    expect(logged.body.data[0].request_headers["x-team"]).toBe("[redacted]");
    expect(logged.body.data[0].request_headers["webhook-signature"]).toMatch(/^v1,/);
    await receiver.close();
  });

  it("retries a receiver failing 3 times: exactly 4 attempts, one webhook-id, gaps per schedule", async () => {
    const receiver = await startReceiver((_req, res, _body, i) => res.writeHead(i < 3 ? 500 : 200).end("x"));
    const { uid, secret } = await setup(receiver.url);
    const message = await send(uid);
    await waitFor(async () => (await deliveryOf(message.id)).status === "succeeded", { what: "success after retries" });
    // Nothing can follow: the delivery has left the queue.
    expect(await queued(message.id)).toBe(0);
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([message.id]));
    for (const r of receiver.received) expect(() => new SvixWebhook(secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    const gaps = receiver.received.slice(1).map((r, i) => r.at - receiver.received[i]!.at);
    // Never early. Late only by how busy the machine is: a retry left to the minute sweep instead
    // of its own wake-up would come up to a minute late.
    [150, 300, 150].forEach((expected, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(expected - 5);
      expect(gaps[i]).toBeLessThan(expected + 10_000);
    });
    const delivery = await deliveryOf(message.id);
    expect(delivery).toMatchObject({ attempts: 4, scheduledAttempts: 4, lastStatusCode: 200 });
    const log = await getDb().select().from(attempts).where(eq(attempts.messageId, message.id));
    expect(log.map((a) => a.attemptNumber).sort()).toEqual([1, 2, 3, 4]);
    await receiver.close();
  });

  it("stops after exactly 8 attempts to an always-failing receiver and marks the delivery failed", async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(410).end("gone"));
    const { uid, endpointId } = await setup(receiver.url);
    const message = await send(uid);
    await waitFor(async () => (await deliveryOf(message.id)).status === "failed", { what: "exhaustion", timeout: 30_000 });
    expect(await queued(message.id)).toBe(0);
    expect(receiver.received).toHaveLength(8);
    const delivery = await deliveryOf(message.id);
    expect(delivery).toMatchObject({ attempts: 8, nextAttemptAt: null, lastStatusCode: 410 });
    const failures = await api.get(`/api/v1/attempts?endpoint_id=${endpointId}&status=failure`);
    expect(failures.body.data).toHaveLength(8);
    expect(failures.body.data[0]).toMatchObject({ attempt_number: 8, status_code: 410, response_body: "gone" });
    const endpoint = await api.get(`/api/v1/endpoints/${endpointId}`);
    expect(endpoint.body.failing_since).not.toBeNull();
    await receiver.close();
  });

  it("waits longer on 429 with Retry-After, but at most twice the scheduled delay", async () => {
    const receiver = await startReceiver((_req, res, _body, i) =>
      i === 0 ? res.writeHead(429, { "retry-after": "30" }).end() : res.writeHead(200).end(),
    );
    const { uid } = await setup(receiver.url);
    await send(uid);
    // Waiting less than Retry-After's 30 s is what is tested: the wait gives up before that.
    await waitFor(() => receiver.received.length === 2, { what: "retry after 429", timeout: 25_000 });
    const gap = receiver.received[1]!.at - receiver.received[0]!.at;
    // Scheduled: 150 ms. Retry-After asks 30 s; the bound is twice the scheduled delay.
    expect(gap).toBeGreaterThanOrEqual(295);
    expect(gap).toBeLessThan(20_000);
    await receiver.close();
  });

  it("never follows a redirect", async () => {
    const target = await startReceiver();
    const receiver = await startReceiver((_req, res) => res.writeHead(302, { location: `${target.url}/stolen` }).end());
    const { uid } = await setup(receiver.url);
    const message = await send(uid);
    await waitFor(async () => (await getDb().select().from(attempts).where(eq(attempts.messageId, message.id))).length >= 2, { what: "two attempts" });
    expect(target.received).toHaveLength(0);
    const [first] = await getDb().select().from(attempts).where(eq(attempts.messageId, message.id)).limit(1);
    expect(first).toMatchObject({ success: false, statusCode: 302, error: "redirect_not_followed" });
    await Promise.all([receiver.close(), target.close()]);
  });

  it("cuts a hung receiver and a slow body at the deadline", async () => {
    const hung = await startReceiver(() => {});
    const slow = await startReceiver((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write("."), 100);
      res.on("close", () => clearInterval(timer));
    });
    const a = await setup(hung.url);
    const b = await setup(slow.url);
    const [m1, m2] = [await send(a.uid), await send(b.uid)];
    const firstAttempt = (id: string) =>
      waitFor(async () => (await getDb().select().from(attempts).where(eq(attempts.messageId, id)).limit(1))[0], { what: "attempt", timeout: 60_000 });
    for (const id of [m1.id, m2.id]) {
      const attempt = await firstAttempt(id);
      expect(attempt, JSON.stringify(attempt)).toMatchObject({ success: false, error: "timeout" });
      expect(attempt.durationMs).toBeGreaterThanOrEqual(4_900);
      // Cut at the 5 s deadline, not at undici's or the receiver's own timeouts (5 minutes); the
      // room above it is a loaded machine's, and still a tenth of those.
      expect(attempt.durationMs).toBeLessThan(30_000);
    }
    await Promise.all([hung.close(), slow.close()]);
  });

  it("keeps at most 1,024 bytes of a 50 MB response and never reads the rest", async () => {
    let sent = 0;
    let dropped = false;
    const big = await startReceiver((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(50 * 1024 * 1024) });
      const chunk = Buffer.alloc(64 * 1024, 97);
      const pump = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => (dropped = !res.writableFinished));
      pump();
    });
    const { uid } = await setup(big.url);
    const message = await send(uid);
    const attempt = await waitFor(async () => (await getDb().select().from(attempts).where(eq(attempts.messageId, message.id)).limit(1))[0], { what: "attempt" });
    expect(attempt.success).toBe(true);
    expect(Buffer.byteLength(attempt.responseBody!)).toBe(1024);
    // The worker dropped the connection mid-body, so the receiver could push only what fits in
    // socket buffers: the rest was never read, let alone held in memory.
    await waitFor(() => dropped, { what: "the connection to be dropped" });
    expect(sent).toBeLessThan(20 * 1024 * 1024);
    await big.close();
  });

  it("filters by event type and skips disabled endpoints", async () => {
    const receiver = await startReceiver();
    const { uid } = await setup(receiver.url, { event_types: ["user.created"] });
    const other = await createEndpoint(api, uid, receiver.url, { disabled: true });
    expect(other.state).toBe("disabled");
    expect((await send(uid, {}, "invoice.paid")).deliveries).toBe(0);
    const matched = await send(uid, { id: 1 }, "user.created");
    expect(matched.deliveries).toBe(1);
    await waitFor(() => receiver.received.length === 1);
    // The only delivery written: nothing else could be sent.
    const written = await getDb().select().from(deliveries).where(eq(deliveries.consumerId, matched.consumer_id));
    expect(written.map((d) => d.messageId)).toEqual([matched.id]);
    expect(receiver.received).toHaveLength(1);
    await receiver.close();
  });

  it("never sends unsigned: a secret that cannot be decrypted fails its attempts and holds up no one else", async () => {
    const receiver = await startReceiver();
    const broken = await setup(`${receiver.url}/broken`);
    const healthy = await setup(`${receiver.url}/healthy`);
    // As if the key it was encrypted under had been dropped from ENCRYPTION_KEYS_PREVIOUS.
    await getDb().execute(sql`update endpoint_secrets set ciphertext = 'v1.0000000000000000.AAAA.AAAA.AAAA' where endpoint_id = ${broken.endpointId}`);
    const lost = await send(broken.uid);
    const fine = await send(healthy.uid);
    await waitFor(async () => (await deliveryOf(lost.id)).status === "failed", { what: "the broken endpoint's delivery to fail", timeout: 30_000 });
    await waitFor(async () => (await deliveryOf(fine.id)).status === "succeeded", { what: "the healthy endpoint's delivery" });
    expect(receiver.received.map((r) => r.path)).toEqual(["/healthy"]);
    const tried = await getDb().select().from(attempts).where(eq(attempts.messageId, lost.id));
    expect(tried).toHaveLength(8);
    expect(tried.every((a) => a.error === "secret_unavailable" && a.statusCode === null)).toBe(true);
    expect(tried[0]!.errorDetail).not.toMatch(/whsec_/);
  });

  it("resends any delivery on request as a manual attempt; a success marks it succeeded", async () => {
    let healthy = false;
    const receiver = await startReceiver((_req, res) => res.writeHead(healthy ? 200 : 503).end());
    const { uid, endpointId } = await setup(receiver.url);
    const message = await send(uid);
    await waitFor(async () => (await deliveryOf(message.id)).status === "failed", { what: "exhaustion", timeout: 20_000 });
    healthy = true;
    const resend = await api.post(`/api/v1/messages/${message.id}/resend`, { endpoint_id: endpointId });
    expect(resend.status).toBe(202);
    expect(resend.body).toMatchObject({ message_id: message.id, endpoint_id: endpointId, trigger: "manual" });
    await waitFor(async () => (await deliveryOf(message.id)).status === "succeeded", { what: "manual success" });
    const log = await api.get(`/api/v1/messages/${message.id}/attempts?endpoint_id=${endpointId}&limit=1`);
    expect(log.body.data[0]).toMatchObject({ attempt_number: 9, trigger: "manual", status_code: 200, success: true });
    expect(log.body.next_cursor).not.toBeNull();
    await receiver.close();
  });
});

describe("POST /messages", () => {
  it("replays an Idempotency-Key with the first answer and refuses it for another body", async () => {
    const { uid } = await setup("http://127.0.0.1:9/never");
    const body = { consumer: uid, event_type: "order.created", payload: { n: 1 } };
    const first = await api.post("/api/v1/messages", body, { "idempotency-key": "order-1" });
    const again = await api.post("/api/v1/messages", body, { "idempotency-key": "order-1" });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const conflict = await api.post("/api/v1/messages", { ...body, payload: { n: 2 } }, { "idempotency-key": "order-1" });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe("idempotency_conflict");
    const count = await getDb().select({ n: sql<number>`count(*)::int` }).from(messages).where(eq(messages.consumerId, first.body.consumer_id));
    expect(count[0]!.n).toBe(1);
  });

  it("creates exactly one message for 20 concurrent requests with one key", async () => {
    const { uid } = await setup("http://127.0.0.1:9/never");
    const body = { consumer: uid, event_type: "order.created", payload: { n: 1 } };
    const results = await Promise.all(Array.from({ length: 20 }, () => api.post("/api/v1/messages", body, { "idempotency-key": "race" })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(202));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    const rows = await getDb().select().from(messages).where(eq(messages.id, results[0]!.body.id));
    expect(rows).toHaveLength(1);
  });

  it("answers bad input with problems and writes nothing", async () => {
    const { uid } = await setup("http://127.0.0.1:9/never");
    const before = (await getDb().select({ n: sql<number>`count(*)::int` }).from(messages))[0]!.n;
    await withEnv({ MAX_PAYLOAD_BYTES: "1000" }, async () => {
      const cases: [unknown, number, string, Record<string, string>?][] = [
        [{ consumer: "nobody", event_type: "a.b", payload: {} }, 404, "not_found"],
        [{ consumer: uid, event_type: "bad type!", payload: {} }, 422, "validation_failed"],
        [{ consumer: uid, event_type: "a.b", payload: [1, 2] }, 422, "validation_failed"],
        [{ consumer: uid, event_type: "a.b" }, 422, "validation_failed"],
        [{ consumer: uid, event_type: "a.b", payload: { big: "x".repeat(2000) } }, 413, "payload_too_large"],
        [{ consumer: uid, event_type: "a.b", payload: {} }, 400, "validation_failed", { "idempotency-key": "has space" }],
      ];
      for (const [body, status, code, headers] of cases) {
        const res = await api.post("/api/v1/messages", body, headers);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
        expect(res.body.code).toBe(code);
      }
      const tooBig = await api.raw("POST", "/api/v1/messages", { key: api.key, rawBody: JSON.stringify({ consumer: uid, event_type: "a.b", payload: { x: "y".repeat(200_000) } }) });
      expect(tooBig.status).toBe(413);
    });
    expect((await getDb().select({ n: sql<number>`count(*)::int` }).from(messages))[0]!.n).toBe(before);

    expect((await api.get("/api/v1/messages?status=weird")).status).toBe(400);
    expect((await api.get("/api/v1/messages?since=yesterday")).status).toBe(400);
    expect((await api.get("/api/v1/attempts?status=maybe")).status).toBe(400);
    expect((await api.get("/api/v1/messages/msg_nope")).status).toBe(404);
    expect((await api.get("/api/v1/messages/msg_nope/attempts")).status).toBe(404);
    expect((await api.post("/api/v1/messages/msg_nope/resend", { endpoint_id: "ep_x" })).status).toBe(404);
    expect((await api.post("/api/v1/messages/msg_nope/resend", {})).status).toBe(422);
  });

  it("lists messages newest first with filters", async () => {
    const receiver = await startReceiver();
    const { uid, endpointId } = await setup(receiver.url);
    const a = await send(uid, { n: 1 }, "filter.one");
    const b = await send(uid, { n: 2 }, "filter.two");
    await waitFor(() => receiver.received.length === 2);
    const all = await api.get(`/api/v1/messages?consumer=${uid}`);
    expect(all.body.data.map((m: { id: string }) => m.id)).toEqual([b.id, a.id]);
    const one = await api.get(`/api/v1/messages?consumer=${uid}&event_type=filter.one`);
    expect(one.body.data.map((m: { id: string }) => m.id)).toEqual([a.id]);
    expect(one.body.data[0].deliveries[0]).toMatchObject({ endpoint_id: endpointId });
    await waitFor(async () => (await api.get(`/api/v1/messages?endpoint_id=${endpointId}&status=succeeded`)).body.data.length === 2);
    const failed = await api.get(`/api/v1/messages?endpoint_id=${endpointId}&status=failed`);
    expect(failed.body.data).toHaveLength(0);
    const paged = await api.get(`/api/v1/messages?consumer=${uid}&limit=1`);
    const next = await api.get(`/api/v1/messages?consumer=${uid}&limit=1&cursor=${paged.body.next_cursor}`);
    expect(next.body.data[0].id).toBe(a.id);
    const stats = await api.get(`/api/v1/endpoints/${endpointId}/stats`);
    expect(stats.body).toMatchObject({ attempts: 2, succeeded: 2, failed: 0, success_rate: 1 });
    await receiver.close();
  });
});
