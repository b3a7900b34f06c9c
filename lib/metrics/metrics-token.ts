import { createHash, timingSafeEqual } from "node:crypto";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether a request may read the web app's metrics (and, with METRICS_TOKEN set, a worker's:
 * worker/metrics.ts): only when METRICS_TOKEN is set and the request carries
 * `Authorization: Bearer <METRICS_TOKEN>`. Compared as SHA-256 digests in constant time,
 * so neither the token's characters nor its length leak through timing.
 */
export function metricsRequestAllowed(token: string | undefined, authorization: string | null): boolean {
  if (!token || !authorization) return false;
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(authorization);
  return match ? timingSafeEqual(digest(match[1]!), digest(token)) : false;
}
