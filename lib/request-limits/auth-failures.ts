import type { Config } from "../config";
import { SHARED_CLIENT } from "./client-address";
import { FailedAuthLimiter } from "./rate-limit";

let current: { config: Config; limiter: FailedAuthLimiter } | undefined;

/**
 * The one failed-authentication limiter of this process, shared by every way in without a session:
 * bearer API keys and portal sessions (api-route.ts) and portal link tokens (the exchange). One
 * instance, so guesses of either kind from one client drain the same bucket. Made anew when the
 * configuration is re-read (tests change API_AUTH_FAILURES_PER_MINUTE).
 */
export function authFailures(config: Config): FailedAuthLimiter {
  if (current?.config !== config) current = { config, limiter: new FailedAuthLimiter(config.API_AUTH_FAILURES_PER_MINUTE) };
  return current.limiter;
}

/**
 * Whose failures a request's count against: its client's, when clientAddress knows it (TRUST_PROXY);
 * otherwise the presented token's own. One bucket for every unknown client would let anyone's bad
 * tokens refuse everybody's good ones (a customer's one-time portal link included); per token,
 * repeating a bad token is still limited, and a valid token, which never fails, is never refused.
 */
export function failureBucket(client: string, tokenHash: string): string {
  return client === SHARED_CLIENT ? `token:${tokenHash}` : `client:${client}`;
}
