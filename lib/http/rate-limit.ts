/**
 * A token bucket per credential (API key, operator, portal session), per web process: it bounds
 * how hard one credential can hit one process. (Delivery-side limits, which must hold across
 * processes, live in Postgres instead.) At most `maxEntries` buckets, the least recently used
 * going first: portal sessions come and go without bound, and a bucket dropped is a full one again.
 */
export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private perSecond: number,
    private maxEntries = 10_000,
  ) {}

  /** Seconds to wait, or 0 when the request may go ahead. */
  take(key: string, now = Date.now()): number {
    const bucket = this.buckets.get(key) ?? { tokens: this.perSecond, at: now };
    bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    remember(this.buckets, key, bucket, this.maxEntries);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }
}

type Bucket = { tokens: number; at: number };

/**
 * Failed authentications per client (API keys, portal sessions, portal link tokens), per web
 * process: a bucket of `perMinute` that only failures take from and that refills over a minute.
 * While it is empty the client is answered 429 unless its token is among the active credentials
 * (lib/http/active-credentials.ts; never for a link token, see clientRetryAfter), so unknown
 * `sk_…` tokens cannot cost a database query each without bound. A token that authenticated in
 * this process before passes regardless: a flood from a shared address (or from anywhere, when all
 * clients share one bucket) does not lock out the keys in use. Both maps are bounded; the oldest
 * entries go first.
 */
export class FailedAuthLimiter {
  private buckets = new Map<string, Bucket>();
  private known = new Map<string, true>();
  constructor(
    private perMinute: number,
    private maxEntries = 10_000,
  ) {}

  private refilled(client: string, now: number): Bucket {
    const bucket = this.buckets.get(client) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) / 60_000) * this.perMinute);
    bucket.at = now;
    return bucket;
  }

  /** Seconds the client must wait before its token is looked up, or 0. */
  retryAfter(client: string, tokenHash: string, now = Date.now()): number {
    if (this.known.has(tokenHash)) return 0;
    return this.clientRetryAfter(client, now);
  }

  /**
   * The same wait with no token passing regardless: for one-time tokens (portal links), which are
   * never "known" and have no active credentials to be among.
   */
  clientRetryAfter(client: string, now = Date.now()): number {
    const bucket = this.buckets.get(client);
    if (!bucket) return 0;
    const { tokens } = this.refilled(client, now);
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil(((1 - tokens) * 60) / this.perMinute));
  }

  failed(client: string, tokenHash?: string, now = Date.now()): void {
    // A revoked key stops passing at once, and its retries are limited like any unknown token's.
    if (tokenHash !== undefined) this.known.delete(tokenHash);
    const bucket = this.refilled(client, now);
    bucket.tokens = Math.max(0, bucket.tokens - 1);
    remember(this.buckets, client, bucket, this.maxEntries);
  }

  succeeded(tokenHash: string): void {
    remember(this.known, tokenHash, true, this.maxEntries);
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as string);
}
