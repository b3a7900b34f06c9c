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
 * Failed authentications (API keys, portal sessions, portal link tokens), per web process, per
 * bucket: the client's when its address is known, else the presented token's own
 * (failureBucket, ./auth-failures.ts) — so nobody's bad tokens cost anybody else's good one. A
 * bucket holds `perMinute`, only failures take from it, and it refills over a minute. While it is
 * empty the request is answered 429 at once, with no database work (the point of the limit), unless
 * its token authenticated in this process before: a flood from a shared address does not lock out
 * the keys in use there. A link token is one-time, so it never passes that way. Both maps are
 * bounded; the least recently used entries go first.
 */
export class FailedAuthLimiter {
  private buckets = new Map<string, Bucket>();
  private known = new Map<string, true>();
  constructor(
    private perMinute: number,
    private maxEntries = 10_000,
  ) {}

  private refilled(bucketKey: string, now: number): Bucket {
    const bucket = this.buckets.get(bucketKey) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) / 60_000) * this.perMinute);
    bucket.at = now;
    return bucket;
  }

  /**
   * Seconds to wait before the token is looked up, or 0. `tokenHash` given: a token that
   * authenticated here before passes regardless (API keys and portal sessions, not link tokens).
   */
  retryAfter(bucketKey: string, tokenHash?: string, now = Date.now()): number {
    if (tokenHash !== undefined && this.known.has(tokenHash)) return 0;
    if (!this.buckets.has(bucketKey)) return 0;
    const { tokens } = this.refilled(bucketKey, now);
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil(((1 - tokens) * 60) / this.perMinute));
  }

  failed(bucketKey: string, tokenHash?: string, now = Date.now()): void {
    // A revoked key stops passing at once, and its retries are limited like any unknown token's.
    if (tokenHash !== undefined) this.known.delete(tokenHash);
    const bucket = this.refilled(bucketKey, now);
    bucket.tokens = Math.max(0, bucket.tokens - 1);
    remember(this.buckets, bucketKey, bucket, this.maxEntries);
  }

  succeeded(tokenHash: string): void {
    remember(this.known, tokenHash, true, this.maxEntries);
  }
}

/** Sets `key` as the most recently used entry, dropping the least recently used past `max`. */
export function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as string);
}
