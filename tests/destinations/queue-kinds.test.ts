import amqplib, { type ChannelModel, type GetMessage } from "amqplib";
import { Redis } from "ioredis";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../lib/config";
import { amqp, closeAmqpConnections } from "../../lib/destinations/amqp";
import { sealTarget } from "../../lib/destinations/broker";
import { resolveTarget } from "../../lib/destinations";
import { closeRedisConnections, PAYLOAD_FIELD, redisStream } from "../../lib/destinations/redis-stream";
import { startRabbit, startRedis, type RabbitServer, type RedisServer } from "../helpers/brokers";

// Each kind's stages against a real server of this file's own: what a customer receives, and
// every way a broker says no. The engine around them is tests/destinations/queue-delivery.test.ts.

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const config = parseConfig({ ENCRYPTION_KEY: "ab".repeat(32), DELIVERY_TIMEOUT: "3s" });
const loopback = { allowHttp: true, allowPrivate: true, allowCidrs: [] };
const options = (isolationKey: string, policy = loopback) => ({ config, policy, isolationKey });
const outgoing = (messageId: string, isTest = false) => ({ messageId, endpointId: "ep_q", payload: JSON.stringify({ type: "invoice.paid", id: messageId }), isTest });

let redis: RedisServer;
let rabbit: RabbitServer;
beforeAll(async () => {
  [redis, rabbit] = await Promise.all([startRedis(), startRabbit()]);
}, 120_000);
afterAll(async () => {
  closeAmqpConnections();
  closeRedisConnections();
  await Promise.all([redis?.close(), rabbit?.close()]);
}, 60_000);

describe("redis_stream", () => {
  const target = (fields: { url?: string; stream?: string; max_len?: number | null } = {}) =>
    redisStream.target.parse(sealTarget({ url: fields.url ?? redis.url(), stream: fields.stream ?? "events", max_len: fields.max_len }, config.ENCRYPTION_KEY));

  it("XADDs the payload with the Standard Webhooks headers as fields: the entry id is the answer, the standardwebhooks library verifies the entry", async () => {
    const stored = target();
    const { request, loggedHeaders } = redisStream.prepare(outgoing("msg_r1", true), stored, [SECRET]);
    const result = await redisStream.send(request, options("ep_r1"));
    expect(result).toMatchObject({ statusCode: null, error: null });
    expect(redisStream.classify(result, Date.now())).toEqual({ success: true, error: null, retryAfterMs: null });
    expect(result.responseBody).toMatch(/^\d+-\d+$/);
    expect(loggedHeaders).toMatchObject({ "webhook-id": "msg_r1", "webhook-test": "true" });

    const reader = new Redis({ port: redis.port, password: redis.password, lazyConnect: true });
    await reader.connect();
    const [[id, flat]] = (await reader.xrange("events", "-", "+")) as [[string, string[]]];
    await reader.quit();
    expect(id).toBe(result.responseBody);
    const fields = Object.fromEntries(Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]]));
    expect(new Webhook(SECRET).verify(fields[PAYLOAD_FIELD]!, fields)).toEqual({ type: "invoice.paid", id: "msg_r1" });
    // What the attempt log shows and what the API shows: never the password.
    expect(resolveTarget("redis_stream", stored).where).toBe(`redis://:****@127.0.0.1:${redis.port} (stream "events")`);
    expect(JSON.stringify(stored)).not.toContain(redis.password);
  });

  it("needs no more than XADD on its stream: a user allowed that alone delivers", async () => {
    const admin = new Redis({ port: redis.port, password: redis.password });
    await admin.acl("SETUSER", "publisher", "on", ">pub-pw", "~only-this", "+xadd");
    await admin.quit();
    const stored = target({ url: `redis://publisher:pub-pw@127.0.0.1:${redis.port}`, stream: "only-this" });
    const result = await redisStream.send(redisStream.prepare(outgoing("msg_acl"), stored, [SECRET]).request, options("ep_acl"));
    expect(result).toMatchObject({ error: null, responseBody: expect.stringMatching(/^\d+-\d+$/) });
    const refused = await redisStream.send(redisStream.prepare(outgoing("msg_acl2"), target({ url: stored.url.replace("****", "pub-pw"), stream: "another" }), [SECRET]).request, options("ep_acl2"));
    expect(refused).toMatchObject({ error: "auth_failed", errorDetail: expect.stringMatching(/^NOPERM/) });
  });

  it("trims to about max_len entries (MAXLEN ~): the oldest go, the send never fails for length", async () => {
    const stored = target({ stream: "trimmed", max_len: 5 });
    for (let i = 0; i < 300; i++) {
      const { request } = redisStream.prepare(outgoing(`msg_t${i}`), stored, [SECRET]);
      expect((await redisStream.send(request, options("ep_r2"))).error).toBeNull();
    }
    const reader = new Redis({ port: redis.port, password: redis.password });
    const length = await reader.xlen("trimmed");
    await reader.quit();
    expect(length).toBeLessThan(300);
    expect(length).toBeGreaterThanOrEqual(5);
  });

  it("fails, never throws: wrong password, a server out of memory, a key of another type, a forbidden address, nobody listening", async () => {
    const attempt = async (stored: ReturnType<typeof target>, key: string, policy = loopback) => redisStream.send(redisStream.prepare(outgoing("msg_rf"), stored, [SECRET]).request, options(key, policy));

    expect(await attempt(target({ url: redis.url("wrong") }), "ep_rf1")).toMatchObject({ error: "auth_failed", errorDetail: expect.stringMatching(/WRONGPASS/) });

    const admin = new Redis({ port: redis.port, password: redis.password });
    await admin.set("a-string", "x");
    expect(await attempt(target({ stream: "a-string" }), "ep_rf2")).toMatchObject({ error: "broker_error", errorDetail: expect.stringMatching(/WRONGTYPE/) });
    await admin.config("SET", "maxmemory-policy", "noeviction");
    await admin.config("SET", "maxmemory", "1");
    try {
      expect(await attempt(target(), "ep_rf2")).toMatchObject({ error: "broker_full", errorDetail: expect.stringMatching(/^OOM/) });
    } finally {
      await admin.config("SET", "maxmemory", "0");
      await admin.quit();
    }
    expect((await attempt(target(), "ep_rf2")).error).toBeNull();

    expect(await attempt(target(), "ep_rf3", { ...loopback, allowPrivate: false })).toMatchObject({ error: "forbidden_address" });
    expect(await attempt(target(), "ep_rf3", { ...loopback, allowHttp: false })).toMatchObject({ error: "plaintext_not_allowed" });
    expect(await attempt(target({ url: "redis://:pw@127.0.0.1:9" }), "ep_rf4")).toMatchObject({ error: "connection_refused" });
  });
});

describe("amqp", () => {
  let model: ChannelModel;
  beforeAll(async () => {
    model = await amqplib.connect(rabbit.url());
    const channel = await model.createChannel();
    await channel.assertExchange("webhooks", "topic", { durable: true });
    await channel.assertQueue("invoices", { durable: true });
    await channel.bindQueue("invoices", "webhooks", "invoice.*");
    await channel.assertQueue("small", { durable: true, arguments: { "x-max-length": 2, "x-overflow": "reject-publish" } });
    await channel.bindQueue("small", "webhooks", "small");
    await channel.close();
  });
  afterAll(() => model?.close());

  const target = (fields: { url?: string; exchange?: string; routing_key?: string } = {}) =>
    amqp.target.parse(sealTarget({ url: fields.url ?? rabbit.url(), exchange: fields.exchange ?? "webhooks", routing_key: fields.routing_key ?? "invoice.paid" }, config.ENCRYPTION_KEY));
  const attempt = async (stored: ReturnType<typeof target>, key: string, messageId = "msg_af", policy = loopback) =>
    amqp.send(amqp.prepare(outgoing(messageId), stored, [SECRET]).request, options(key, policy));

  it("publishes persistent and mandatory: success is the publisher confirm, the standardwebhooks library verifies the message", async () => {
    const stored = target();
    const result = await attempt(stored, "ep_a1", "msg_a1");
    expect(result).toMatchObject({ statusCode: null, error: null, responseBody: "basic.ack" });
    expect(amqp.classify(result, Date.now()).success).toBe(true);

    const channel = await model.createChannel();
    const message = (await channel.get("invoices", { noAck: true })) as GetMessage;
    await channel.close();
    expect(message.properties).toMatchObject({ contentType: "application/json", messageId: "msg_a1", deliveryMode: 2 });
    const headers = Object.fromEntries(Object.entries(message.properties.headers ?? {}).map(([k, v]) => [k, String(v)]));
    expect(new Webhook(SECRET).verify(message.content.toString(), headers)).toEqual({ type: "invoice.paid", id: "msg_a1" });
    expect(resolveTarget("amqp", stored).where).toBe(`amqp://webhooks:****@127.0.0.1:${rabbit.port} (exchange "webhooks", routing key "invoice.paid")`);
    expect(JSON.stringify(stored)).not.toContain(rabbit.password);
  });

  it("a full queue (x-max-length with reject-publish) nacks: broker_rejected; a routing key no queue takes: unroutable; no exchange: broker_error", async () => {
    const small = target({ routing_key: "small" });
    expect((await attempt(small, "ep_a2", "msg_s1")).error).toBeNull();
    expect((await attempt(small, "ep_a2", "msg_s2")).error).toBeNull();
    expect(await attempt(small, "ep_a2", "msg_s3")).toMatchObject({ error: "broker_rejected", errorDetail: expect.stringMatching(/nack/) });
    expect(await attempt(target({ routing_key: "nobody.listens" }), "ep_a2", "msg_u")).toMatchObject({ error: "unroutable" });
    expect(await attempt(target({ exchange: "missing" }), "ep_a2", "msg_m")).toMatchObject({ error: "broker_error", errorDetail: expect.stringMatching(/NOT_FOUND/) });
    // The channel the broker closed is not reused: the next message goes through.
    expect((await attempt(target(), "ep_a2", "msg_after")).error).toBeNull();
  });

  it("needs no more than write permission on its exchange: a user allowed that alone delivers, elsewhere it is refused", async () => {
    rabbit.ctl("add_user", "publisher", "pub-pw");
    rabbit.ctl("set_permissions", "-p", "/", "publisher", "^$", "^webhooks$", "^$");
    const url = `amqp://publisher:pub-pw@127.0.0.1:${rabbit.port}`;
    expect(await attempt(target({ url }), "ep_a6", "msg_p1")).toMatchObject({ error: null, responseBody: "basic.ack" });
    expect(await attempt(target({ url, exchange: "amq.topic" }), "ep_a6", "msg_p2")).toMatchObject({ error: "auth_failed", errorDetail: expect.stringMatching(/ACCESS_REFUSED/) });
  });

  it("fails, never throws: wrong password, a forbidden address, nobody listening", async () => {
    expect(await attempt(target({ url: rabbit.url("wrong") }), "ep_a3")).toMatchObject({ error: "auth_failed", errorDetail: expect.stringMatching(/ACCESS.REFUSED/) });
    expect(await attempt(target(), "ep_a4", "msg_x", { ...loopback, allowPrivate: false })).toMatchObject({ error: "forbidden_address" });
    expect(await attempt(target({ url: "amqp://u:p@127.0.0.1:9" }), "ep_a5")).toMatchObject({ error: "connection_refused" });
  });
});
