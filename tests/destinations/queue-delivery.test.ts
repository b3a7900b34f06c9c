import amqplib, { type ChannelModel, type GetMessage } from "amqplib";
import { Redis } from "ioredis";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { PAYLOAD_FIELD } from "../../lib/destinations/redis-stream";
import { apiClient, type Api } from "../helpers/api";
import { startRabbit, startRedis, type RabbitServer, type RedisServer } from "../helpers/brokers";
import { createConsumer, endpointSecret, sendMessage } from "../helpers/fixtures";
import { waitFor } from "../helpers/receiver";
import { runTestWorker } from "../helpers/worker";

// The engine delivering into real brokers: the same claim, schedule, attempt log, circuit and
// ordering as HTTP (docs/destinations.md). Each kind's stages alone: ./queue-kinds.test.ts.

// Enough retries to outlast a broker's restart (RabbitMQ takes seconds to boot); a circuit that
// opens on the outage and probes soon after.
process.env.DELIVERY_SCHEDULE = "0,300ms,1s,2s,2s,2s,3s,3s,3s,3s,3s,3s,3s";
process.env.DELIVERY_TIMEOUT = "3s";
process.env.CIRCUIT_OPEN_FOR = "1s";

let api: Api;
let redis: RedisServer;
let rabbit: RabbitServer;
let model: ChannelModel;
beforeAll(async () => {
  [redis, rabbit] = await Promise.all([startRedis(), startRabbit()]);
  api = await apiClient();
  model = await amqplib.connect(rabbit.url());
  const channel = await model.createChannel();
  await channel.assertExchange("webhooks", "direct", { durable: true });
  await channel.close();
}, 120_000);
runTestWorker();
afterAll(async () => {
  await model?.close().catch(() => {});
  await Promise.all([redis?.close(), rabbit?.close()]);
}, 60_000);

/** A durable queue bound to the exchange under its own name as routing key (`args`: its limits). */
async function queue(name: string, args: Record<string, unknown> = {}) {
  const channel = await model.createChannel();
  await channel.assertQueue(name, { durable: true, arguments: args });
  await channel.bindQueue(name, "webhooks", name);
  await channel.close();
}

/** Everything in a queue now, taken off it (body and headers as the customer's consumer sees them). */
async function drain(name: string): Promise<{ body: string; headers: Record<string, string> }[]> {
  const channel = await model.createChannel();
  const out: { body: string; headers: Record<string, string> }[] = [];
  for (;;) {
    const message = (await channel.get(name, { noAck: true })) as GetMessage | false;
    if (!message) break;
    out.push({ body: message.content.toString(), headers: Object.fromEntries(Object.entries(message.properties.headers ?? {}).map(([k, v]) => [k, String(v)])) });
  }
  await channel.close();
  return out;
}

/** A stream's entries now: each entry's fields. */
async function entries(stream: string): Promise<Record<string, string>[]> {
  const reader = new Redis({ port: redis.port, password: redis.password });
  try {
    const rows = (await reader.xrange(stream, "-", "+")) as [string, string[]][];
    return rows.map(([, flat]) => Object.fromEntries(Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i]!, flat[2 * i + 1]!])));
  } finally {
    reader.disconnect();
  }
}

async function endpoint(consumer: string, fields: Record<string, unknown>): Promise<string> {
  const res = await api.post(`/api/v1/consumers/${consumer}/endpoints`, fields);
  if (res.status !== 201) throw new Error(`endpoint: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/**
 * Ten messages delivered, the broker stopped, twenty more sent, an attempt seen failing, the broker
 * started again, all thirty delivered: their ids in creation order.
 */
async function sendAcrossOutage(uid: string, endpointId: string, broker: { stop(): Promise<void>; start(): Promise<void> }): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) ids.push((await sendMessage(api, uid, { payload: { i } })).id);
  await waitFor(() => allSucceeded(endpointId, 10), { what: "the first ten delivered" });
  await broker.stop();
  for (let i = 10; i < 30; i++) ids.push((await sendMessage(api, uid, { payload: { i } })).id);
  await waitFor(async () => (await attemptErrors(endpointId)).length > 0, { what: "an attempt failing on the stopped broker" });
  await broker.start();
  await waitFor(() => allSucceeded(endpointId, 30), { timeout: 60_000, what: "every message delivered after the restart" });
  return ids;
}

/** Each id once, where it first came. */
const firstOccurrences = (ids: string[]) => [...new Set(ids)];

const statuses = async (endpointId: string) =>
  getSql()<{ status: string; n: number }[]>`select status, count(*)::int as n from deliveries where endpoint_id = ${endpointId} group by status`;
const allSucceeded = async (endpointId: string, n: number) => {
  const rows = await statuses(endpointId);
  return rows.length === 1 && rows[0]!.status === "succeeded" && rows[0]!.n === n;
};
const attemptErrors = async (endpointId: string) =>
  (await getSql()<{ error: string }[]>`select distinct error from attempts where endpoint_id = ${endpointId} and error is not null`).map((r) => r.error);

describe("amqp through the engine", () => {
  it("publishes, confirms and logs what the broker said; the customer verifies with standardwebhooks; a test send too", async () => {
    await queue("billing");
    const { uid } = await createConsumer(api, {}, "amqp");
    const id = await endpoint(uid, { kind: "amqp", target: { url: rabbit.url(), exchange: "webhooks", routing_key: "billing" } });
    const message = await sendMessage(api, uid, { payload: { invoice: 1 } });
    await waitFor(() => allSucceeded(id, 1), { what: "the message confirmed" });

    const [received] = await drain("billing");
    const secret = await endpointSecret(api, id);
    expect(new Webhook(secret).verify(received!.body, received!.headers)).toEqual({ invoice: 1 });
    expect(received!.headers["webhook-id"]).toBe(message.id);
    const attempts = await api.get(`/api/v1/messages/${message.id}/attempts`);
    expect(attempts.body.data).toMatchObject([{ status_code: null, error: null, response_body: "basic.ack" }]);
    expect(attempts.text).not.toContain(rabbit.password);

    expect((await api.post(`/api/v1/endpoints/${id}/test`, {})).status).toBe(202);
    const [test] = await waitFor(async () => {
      const got = await drain("billing");
      return got.length > 0 ? got : null;
    }, { what: "the test message" });
    expect(test!.headers["webhook-test"]).toBe("true");
    expect(() => new Webhook(secret).verify(test!.body, test!.headers)).not.toThrow();
  });

  it("a broker stopped mid-load: attempts fail with the error logged and are retried; after it is back every message is there, none lost, in order", async () => {
    await queue("outage");
    const { uid } = await createConsumer(api, {}, "amqp-outage");
    const id = await endpoint(uid, { kind: "amqp", target: { url: rabbit.url(), exchange: "webhooks", routing_key: "outage" }, ordering: "ordered" });
    const ids = await sendAcrossOutage(uid, id, rabbit);

    model = await amqplib.connect(rabbit.url());
    // At least once: a message the broker kept but could not confirm before it stopped comes again.
    expect(firstOccurrences((await drain("outage")).map((m) => m.headers["webhook-id"]!))).toEqual(ids);
    expect((await attemptErrors(id)).filter((e) => !["connection_refused", "connection_reset", "broker_error", "network_error", "timeout"].includes(e))).toEqual([]);
  }, 120_000);

  it("bad credentials: every attempt fails auth_failed, logged, and the delivery stays retried", async () => {
    const { uid } = await createConsumer(api, {}, "amqp-auth");
    const id = await endpoint(uid, { kind: "amqp", target: { url: rabbit.url("wrong"), exchange: "webhooks", routing_key: "billing" } });
    const message = await sendMessage(api, uid);
    const attempts = await waitFor(async () => {
      const res = await api.get(`/api/v1/messages/${message.id}/attempts`);
      return res.body.data.length >= 2 ? res.body.data : null;
    }, { what: "two failed attempts" });
    expect(attempts[0]).toMatchObject({ error: "auth_failed", status_code: null });
    expect((await statuses(id)).map((r) => r.status)).toEqual(["pending"]);
  });

  it("a full queue (x-max-length, reject-publish) nacks: broker_rejected, retried, delivered once it has room", async () => {
    await queue("tiny", { "x-max-length": 1, "x-overflow": "reject-publish" });
    const { uid } = await createConsumer(api, {}, "amqp-full");
    const id = await endpoint(uid, { kind: "amqp", target: { url: rabbit.url(), exchange: "webhooks", routing_key: "tiny" }, ordering: "ordered" });
    const first = await sendMessage(api, uid, { payload: { n: 1 } });
    const second = await sendMessage(api, uid, { payload: { n: 2 } });
    await waitFor(async () => (await attemptErrors(id)).includes("broker_rejected"), { what: "the second message nacked" });
    expect((await drain("tiny")).map((m) => m.headers["webhook-id"])).toEqual([first.id]);
    await waitFor(() => allSucceeded(id, 2), { what: "the second message delivered once the queue had room" });
    expect((await drain("tiny")).map((m) => m.headers["webhook-id"])).toEqual([second.id]);
  });

  it("an ordered endpoint keeps creation order in the queue", async () => {
    await queue("ordered");
    const { uid } = await createConsumer(api, {}, "amqp-ordered");
    const id = await endpoint(uid, { kind: "amqp", target: { url: rabbit.url(), exchange: "webhooks", routing_key: "ordered" }, ordering: "ordered", max_concurrency: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await sendMessage(api, uid, { payload: { i } })).id);
    await waitFor(() => allSucceeded(id, 25), { what: "all 25 confirmed" });
    expect((await drain("ordered")).map((m) => m.headers["webhook-id"])).toEqual(ids);
  });
});

describe("redis_stream through the engine", () => {
  it("XADDs and logs the entry id; the customer verifies the entry with standardwebhooks; a test send too", async () => {
    const { uid } = await createConsumer(api, {}, "redis");
    const id = await endpoint(uid, { kind: "redis_stream", target: { url: redis.url(), stream: "billing" } });
    const message = await sendMessage(api, uid, { payload: { invoice: 2 } });
    await waitFor(() => allSucceeded(id, 1), { what: "the entry added" });
    const [entry] = await entries("billing");
    const secret = await endpointSecret(api, id);
    expect(new Webhook(secret).verify(entry![PAYLOAD_FIELD]!, entry!)).toEqual({ invoice: 2 });
    const attempts = await api.get(`/api/v1/messages/${message.id}/attempts`);
    expect(attempts.body.data[0].response_body).toMatch(/^\d+-\d+$/);
    expect(attempts.text).not.toContain(redis.password);

    expect((await api.post(`/api/v1/endpoints/${id}/test`, {})).status).toBe(202);
    const test = await waitFor(async () => (await entries("billing"))[1], { what: "the test entry" });
    expect(test["webhook-test"]).toBe("true");
  });

  it("a server stopped mid-load: attempts fail and are retried; after it is back every message is in the stream, none lost, in order", async () => {
    const { uid } = await createConsumer(api, {}, "redis-outage");
    const id = await endpoint(uid, { kind: "redis_stream", target: { url: redis.url(), stream: "outage" }, ordering: "ordered" });
    const ids = await sendAcrossOutage(uid, id, redis);
    expect(firstOccurrences((await entries("outage")).map((e) => e["webhook-id"]!))).toEqual(ids);
    // Refused while it is down; a command in flight as it stopped sees its connection close.
    const errors = await attemptErrors(id);
    expect(errors.filter((e) => !["connection_refused", "connection_reset", "network_error", "timeout"].includes(e))).toEqual([]);
  }, 120_000);

  it("bad credentials fail auth_failed; a server out of memory fails broker_full and the entry goes in once it has room", async () => {
    const { uid } = await createConsumer(api, {}, "redis-refusals");
    const wrong = await endpoint(uid, { kind: "redis_stream", target: { url: redis.url("wrong"), stream: "nowhere" } });
    await sendMessage(api, uid);
    await waitFor(async () => (await attemptErrors(wrong)).includes("auth_failed"), { what: "auth_failed logged" });
    await api.patch(`/api/v1/endpoints/${wrong}`, { disabled: true });

    const admin = new Redis({ port: redis.port, password: redis.password });
    const full = await endpoint(uid, { kind: "redis_stream", target: { url: redis.url(), stream: "full" } });
    await admin.config("SET", "maxmemory-policy", "noeviction");
    await admin.config("SET", "maxmemory", "1");
    try {
      await sendMessage(api, uid);
      await waitFor(async () => (await attemptErrors(full)).includes("broker_full"), { what: "broker_full logged" });
    } finally {
      await admin.config("SET", "maxmemory", "0");
      admin.disconnect();
    }
    await waitFor(() => allSucceeded(full, 1), { what: "delivered once the server had room" });
  });

  it("failures count toward the circuit breaker; a recovery run delivers what wrong credentials left undelivered, once the target is fixed", async () => {
    const { uid } = await createConsumer(api, {}, "redis-recover");
    const id = await endpoint(uid, { kind: "redis_stream", target: { url: redis.url("wrong"), stream: "recovered" } });
    const since = new Date(Date.now() - 1000).toISOString();
    const sent = [await sendMessage(api, uid, { payload: { n: 1 } }), await sendMessage(api, uid, { payload: { n: 2 } })];
    await waitFor(async () => (await api.get(`/api/v1/endpoints/${id}`)).body.consecutive_failures >= 5, { what: "five failures in a row" });
    // Disabling cancels what was pending; the fixed endpoint gets it back through a recovery run.
    await api.post(`/api/v1/endpoints/${id}/disable`, {});
    await waitFor(async () => (await statuses(id)).every((r) => r.status === "canceled"), { what: "the deliveries canceled" });
    const shown = (await api.get(`/api/v1/endpoints/${id}`)).body.target;
    expect((await api.patch(`/api/v1/endpoints/${id}`, { target: { ...shown, url: redis.url() } })).status).toBe(200);
    await api.post(`/api/v1/endpoints/${id}/enable`, {});
    const run = await api.post(`/api/v1/endpoints/${id}/recover`, { since, statuses: ["canceled"], canary: 0 });
    expect(run.status).toBe(202);
    await waitFor(async () => (await api.get(`/api/v1/recoveries/${run.body.id}`)).body.state === "completed", { timeout: 30_000, what: "the recovery completed" });
    expect((await api.get(`/api/v1/recoveries/${run.body.id}`)).body.counts).toMatchObject({ succeeded: 2, failed: 0 });
    expect((await entries("recovered")).map((e) => e["webhook-id"]).sort()).toEqual(sent.map((m) => m.id).sort());
  });

  it("an ordered endpoint keeps creation order in the stream", async () => {
    const { uid } = await createConsumer(api, {}, "redis-ordered");
    const id = await endpoint(uid, { kind: "redis_stream", target: { url: redis.url(), stream: "ordered" }, ordering: "ordered", max_concurrency: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await sendMessage(api, uid, { payload: { i } })).id);
    await waitFor(() => allSucceeded(id, 25), { what: "all 25 added" });
    expect((await entries("ordered")).map((e) => e["webhook-id"])).toEqual(ids);
  });
});
