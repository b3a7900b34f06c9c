/**
 * A token bucket per API key, per web process: it bounds how hard one key can hit one process.
 * (Delivery-side limits, which must hold across processes, live in Postgres instead.)
 */
export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private perSecond: number) {}

  /** Seconds to wait, or 0 when the request may go ahead. */
  take(key: string, now = Date.now()): number {
    const bucket = this.buckets.get(key) ?? { tokens: this.perSecond, at: now };
    bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }
}
