import { Redis, ReplyError } from "ioredis";
import { z } from "zod";
import { classifyNetworkError } from "../webhooks/egress";
import { BROKER_IDLE_MS, brokerSend, brokerSuccess, brokerVerdict, connectionPool, messageFields, sealedUrl, type BrokerAddress, type BrokerError } from "./broker";
import { defineDestination } from "./destination";

const where = {
  stream: z.string().min(1).max(1024),
  /** Trims the stream to about this many entries (XADD MAXLEN ~): the oldest go, unread or not. null: never trimmed. */
  max_len: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
};

/** A redis_stream endpoint's target as the API takes it: the server URL (credentials in it, a database number as its path) and the stream. */
export const redisStreamTargetInput = z.strictObject({ url: z.string().min(1).max(2048), ...where });

/** As it is stored (endpoints.target): the URL masked, and sealed (broker.ts). */
export const redisStreamTarget = z.object({ ...sealedUrl, ...where });
export type RedisStreamTarget = z.infer<typeof redisStreamTarget>;

export type RedisStreamRequest = { sealed: string; stream: string; maxLen: number | null; fields: Record<string, string>; body: string };

/** The stream entry's field holding the message's body; the Standard Webhooks headers are fields beside it. */
export const PAYLOAD_FIELD = "payload";

const pool = connectionPool<Redis>({ idleMs: BROKER_IDLE_MS, close: (redis) => redis.disconnect(), alive: (redis) => redis.status === "ready" });

/** Closes every pooled connection (the worker's shutdown, tests). */
export const closeRedisConnections = () => pool.closeAll();

async function openClient(at: BrokerAddress, timeoutMs: number): Promise<Redis> {
  const { url } = at;
  const db = url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0;
  const redis = new Redis({
    host: at.address,
    port: url.port ? Number(url.port) : 6379,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: Number.isInteger(db) ? db : 0,
    ...(at.tls ? { tls: at.servername ? { servername: at.servername } : {} } : {}),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    // The pool reconnects, on the next attempt; a command never waits in a queue for a reconnect.
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    // A customer's user may be allowed XADD on its stream and nothing else: no INFO ready check
    // (a server still loading answers LOADING, a refusal like any other), no CLIENT SETNAME.
    enableReadyCheck: false,
  });
  // Without a listener an 'error' event is printed; the attempt's own result carries it instead.
  // The server's refusal (a wrong password) comes as an event; connect() then only says "closed".
  let refused: unknown = null;
  redis.on("error", (error: unknown) => (refused ??= error));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw refused ?? error;
  }
  return redis;
}

/** What an ioredis error means: the server's reply (credentials, memory, anything else), else the network's. */
function classifyRedisError(error: unknown): { error: BrokerError; detail: string } {
  const text = error instanceof Error ? error.message : String(error);
  if (error instanceof ReplyError || /^[A-Z]+ /.test(text)) {
    if (/^(WRONGPASS|NOAUTH|NOPERM)/.test(text)) return { error: "auth_failed", detail: text };
    if (/^OOM/.test(text)) return { error: "broker_full", detail: text };
    return { error: "broker_error", detail: text };
  }
  const network = classifyNetworkError(error);
  return { error: network.kind, detail: network.detail };
}

/**
 * XADD to a stream, MAXLEN ~ max_len when set: success is the entry id the server answers, kept
 * as the attempt log's response body. The entry's fields are the Standard Webhooks headers and the
 * payload (PAYLOAD_FIELD). A server that refuses (out of memory under noeviction, a wrong type at
 * the key) fails the attempt in its own words.
 */
export const redisStream = defineDestination<RedisStreamTarget, RedisStreamRequest>({
  kind: "redis_stream",
  target: redisStreamTarget,
  broker: { input: redisStreamTargetInput, schemes: { plain: "redis", tls: "rediss" } },
  describe: (target) => `${target.url} (stream "${target.stream}")`,
  prepare(delivery, target, secrets) {
    const { fields, loggedHeaders } = messageFields(delivery, secrets);
    return { request: { sealed: target.url_ciphertext, stream: target.stream, maxLen: target.max_len ?? null, fields, body: delivery.payload }, loggedHeaders };
  },
  send: brokerSend<Redis, RedisStreamRequest>({
    plain: "redis",
    pool,
    open: openClient,
    async deliver(redis, request, started, drop) {
      const args = [...(request.maxLen !== null ? ["MAXLEN", "~", String(request.maxLen)] : []), "*", ...Object.entries(request.fields).flat(), PAYLOAD_FIELD, request.body];
      try {
        return brokerSuccess(String(await redis.xadd(request.stream, ...(args as [string]))), started);
      } catch (error) {
        // A reply is the server's answer on a working connection; anything else, the connection is suspect.
        if (!(error instanceof ReplyError)) drop();
        throw error;
      }
    },
    refusal: classifyRedisError,
    awaited: "entry id",
  }),
  classify: brokerVerdict,
});
