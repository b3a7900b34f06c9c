import { z } from "zod";
import { decrypt, decryptionKeys, encrypt } from "../crypto/encryption";
import { vetBrokerHost, type ErrorKind } from "../webhooks/egress";
import { loggedRequestHeaders, webhookHeaders } from "../webhooks/request-headers";
import type { Outgoing, SendOptions, SendResult, Verdict } from "./destination";

/**
 * What the queue kinds (amqp, redis_stream) share: a broker URL whose credentials are stored
 * encrypted, the Standard Webhooks headers as message fields, the SSRF rules on the broker's host,
 * a deadline over the whole send, and one pooled connection per endpoint, closed when idle
 * (ADR 0045).
 */

/** What stands for a password wherever a broker URL is shown: the attempt log, the API's answers. */
export const MASKED_PASSWORD = "****";

/** The broker URL as an endpoint stores it: shown with its password masked, and in full only as ciphertext (the signing secrets' keys and rotation). */
export const sealedUrl = {
  url: z.string(),
  url_ciphertext: z.string(),
};

/** The URL with its password (if any) replaced by the mask; the user name stays, as it says which account. */
export function maskBrokerUrl(raw: string): string {
  const url = new URL(raw);
  if (url.password) url.password = MASKED_PASSWORD;
  return url.toString();
}

/** A target as the API takes it (`url` with credentials) → as it is stored: the URL masked, and sealed under ENCRYPTION_KEY. */
export function sealTarget<T extends { url: string }>(input: T, key: Buffer): Omit<T, "url"> & { url: string; url_ciphertext: string } {
  return { ...input, url: maskBrokerUrl(input.url), url_ciphertext: encrypt(input.url, key).ciphertext };
}

/** A stored target as the API answers it: no ciphertext, the URL masked. */
export function showTarget(stored: Record<string, unknown>): Record<string, unknown> {
  const { url_ciphertext: _, ...shown } = stored;
  return shown;
}

// Ciphertext → URL: a ciphertext never changes meaning, so caching it cannot serve a stale URL.
const opened = new Map<string, string>();

function openUrl(ciphertext: string, options: SendOptions): string {
  let url = opened.get(ciphertext);
  if (url === undefined) {
    url = decrypt(ciphertext, decryptionKeys(options.config));
    if (opened.size >= 10_000) opened.clear();
    opened.set(ciphertext, url);
  }
  return url;
}

/** The Standard Webhooks headers of one message, as a queue message carries them (no HTTP's content-type or user-agent). */
export function messageFields(delivery: Outgoing, secrets: string[]): { fields: Record<string, string>; loggedHeaders: Record<string, string> } {
  const { "content-type": _type, "user-agent": _agent, ...fields } = webhookHeaders({
    messageId: delivery.messageId,
    body: delivery.payload,
    secrets,
    custom: {},
    test: delivery.isTest,
  });
  return { fields, loggedHeaders: loggedRequestHeaders(fields, {}) };
}

/** The error codes a queue send fails with, beside the network's (lib/webhooks/egress.ts). */
export type BrokerError =
  | ErrorKind
  /** The broker refused the credentials (or their permissions). */
  | "auth_failed"
  /** AMQP: the broker nacked the message (a full queue with x-overflow reject-publish, or an internal error). */
  | "broker_rejected"
  /** AMQP: no queue is bound to the exchange for the routing key (the message came back as mandatory). */
  | "unroutable"
  /** Redis: out of memory under a noeviction policy: the stream takes nothing until it is read and trimmed. */
  | "broker_full"
  /** Any other refusal from the broker, in its own words. */
  | "broker_error"
  /** A plaintext scheme (amqp://, redis://) while ALLOW_HTTP_ENDPOINTS is off. */
  | "plaintext_not_allowed";

/** A failed send: a result, never a throw. */
export function brokerFailure(error: BrokerError, detail: string, started: number): SendResult {
  return { statusCode: null, error, errorDetail: detail.slice(0, 500), headers: {}, responseBody: "", durationMs: Math.round(performance.now() - started) };
}

/** A send the broker took: what it said (an entry id, a confirm) as the log's response body. */
export function brokerSuccess(said: string, started: number): SendResult {
  return { statusCode: null, error: null, errorDetail: null, headers: {}, responseBody: said, durationMs: Math.round(performance.now() - started) };
}

/** Where to connect: the URL in full and the vetted address of its host — or why not. */
export type BrokerAddress = { url: URL; address: string; servername: string | undefined; tls: boolean };

export async function brokerAddress(ciphertext: string, options: SendOptions, plain: string): Promise<BrokerAddress | { error: BrokerError; detail: string }> {
  let url: URL;
  try {
    url = new URL(openUrl(ciphertext, options));
  } catch {
    return { error: "invalid_url", detail: "the broker URL cannot be decrypted or parsed" };
  }
  const tls = url.protocol !== `${plain}:`;
  if (!tls && !options.policy.allowHttp) return { error: "plaintext_not_allowed", detail: `${plain}:// is not allowed (ALLOW_HTTP_ENDPOINTS is off)` };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const vetted = await vetBrokerHost(host, options.policy);
  if ("error" in vetted) return vetted;
  return { url, address: vetted.address, servername: tls && vetted.address !== host ? host : undefined, tls };
}

/** Settles with `work`'s result, or with `onTimeout()`'s once `ms` have passed. */
function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  return new Promise<T>((resolve) => {
    const timer = setTimeout(() => resolve(onTimeout()), ms);
    void work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => clearTimeout(timer),
    );
  });
}

/**
 * One open connection per endpoint (its isolationKey), as egress.ts keeps one HTTP pool per
 * endpoint: a hung broker holds up only its own endpoint. A connection is opened on first use,
 * reused while the endpoint's stored URL is the same ciphertext and it is `alive`, and closed once
 * it has been idle for `idleMs` (an unref'd timer: an idle pool never keeps a process alive) or
 * when it breaks.
 */
export function connectionPool<C>(options: { idleMs: number; close: (connection: C) => void; alive: (connection: C) => boolean }) {
  type Entry = { sealed: string; connection: Promise<C>; busy: number; timer: NodeJS.Timeout | null };
  const entries = new Map<string, Entry>();
  const forget = (key: string, entry: Entry) => {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    if (entry.timer) clearTimeout(entry.timer);
    void entry.connection.then(options.close, () => {});
  };
  return {
    /** Runs `fn` on the endpoint's connection (opened with `open` when there is none for this URL). */
    async use<T>(key: string, sealed: string, open: () => Promise<C>, fn: (connection: C, drop: () => void) => Promise<T>): Promise<T> {
      let entry = entries.get(key);
      // A connection the broker closed while it sat idle (a restart, say) is not handed out: the
      // attempt connects afresh and fails, if it does, for what is true now.
      const stale = entry && entry.busy === 0 && !(await entry.connection.then(options.alive, () => false));
      if (entry && (entry.sealed !== sealed || stale || entries.get(key) !== entry)) {
        forget(key, entry);
        entry = entries.get(key);
      }
      if (!entry) {
        const created: Entry = { sealed, connection: open(), busy: 0, timer: null };
        entries.set(key, created);
        // A connection that could not be opened is forgotten at once: the next attempt tries again.
        created.connection.catch(() => forget(key, created));
        entry = created;
      }
      const current = entry;
      if (current.timer) clearTimeout(current.timer);
      current.timer = null;
      current.busy += 1;
      try {
        return await fn(await current.connection, () => forget(key, current));
      } finally {
        current.busy -= 1;
        if (current.busy === 0 && entries.get(key) === current) {
          current.timer = setTimeout(() => forget(key, current), options.idleMs);
          current.timer.unref();
        }
      }
    },
    /** Drops the endpoint's connection (it broke, or its deadline passed mid-send). */
    drop(key: string) {
      const entry = entries.get(key);
      if (entry) forget(key, entry);
    },
    /** How many connections are open (tests). */
    size: () => entries.size,
    /** Closes every connection (a worker's shutdown; tests). */
    closeAll() {
      for (const [key, entry] of [...entries]) forget(key, entry);
    },
  };
}

/** How long a queue endpoint's connection stays open with nothing to send. */
export const BROKER_IDLE_MS = 30_000;

export type ConnectionPool<C> = ReturnType<typeof connectionPool<C>>;

/**
 * A queue kind's `send`: the broker's address vetted, the endpoint's pooled connection (opened by
 * `open`), `deliver` on it — and every way that fails as a result, never a throw: a refusal or a
 * broken connection in the kind's own terms (`refusal`), and no answer within DELIVERY_TIMEOUT
 * (connecting included) a `timeout` whose connection is dropped, not trusted with the next message.
 */
export function brokerSend<C, R extends { sealed: string }>(spec: {
  plain: string;
  pool: ConnectionPool<C>;
  open: (at: BrokerAddress, timeoutMs: number) => Promise<C>;
  deliver: (connection: C, request: R, started: number, drop: () => void) => Promise<SendResult>;
  refusal: (error: unknown) => { error: BrokerError; detail: string };
  /** What success is, for the timeout's detail: "publisher confirm", "entry id". */
  awaited: string;
}): (request: R, options: SendOptions) => Promise<SendResult> {
  return (request, options) => {
    const started = performance.now();
    const timeoutMs = options.config.DELIVERY_TIMEOUT;
    const work = (async (): Promise<SendResult> => {
      const at = await brokerAddress(request.sealed, options, spec.plain);
      if ("error" in at) return brokerFailure(at.error, at.detail, started);
      try {
        return await spec.pool.use(options.isolationKey, request.sealed, () => spec.open(at, timeoutMs), (connection, drop) => spec.deliver(connection, request, started, drop));
      } catch (error) {
        const refused = spec.refusal(error);
        return brokerFailure(refused.error, refused.detail, started);
      }
    })();
    return withDeadline(work, timeoutMs, () => {
      spec.pool.drop(options.isolationKey);
      return brokerFailure("timeout", `no ${spec.awaited} within ${timeoutMs} ms`, started);
    });
  };
}

/** A queue kind's verdict: the broker took it, or the send's error says why not (brokers ask for no waits). */
export const brokerVerdict = (result: SendResult): Verdict => ({ success: result.error === null, error: result.error, retryAfterMs: null });
