import { getConfig, type Config } from "../config";
import { FailedAuthLimiter } from "./rate-limit";

let current: { config: Config; limiter: FailedAuthLimiter } | undefined;

/**
 * The one failed-authentication limiter of this process, shared by every way in without a session:
 * bearer API keys and portal sessions (api-route.ts) and portal link tokens (the exchange). One
 * instance, so guesses of either kind drain the same per-client bucket. Made anew when the
 * configuration is re-read (tests change API_AUTH_FAILURES_PER_MINUTE).
 */
export function authFailures(config: Config = getConfig()): FailedAuthLimiter {
  if (current?.config !== config) current = { config, limiter: new FailedAuthLimiter(config.API_AUTH_FAILURES_PER_MINUTE) };
  return current.limiter;
}
