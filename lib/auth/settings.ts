import { ConfigError, getConfig } from "../config";

/**
 * Session cookies are Secure except when the app is served over plain http on a loopback address
 * (the embedded demo, tests): anything reachable from another machine must be behind TLS, and a
 * deployment at http://some-host simply cannot sign in until it is.
 */
export function secureCookies(appUrl = getConfig().APP_URL): boolean {
  const url = new URL(appUrl);
  if (url.protocol === "https:") return true;
  return !["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

/** Auth.js's own cookie names: `__Secure-` prefixed whenever the cookie is Secure. */
export function sessionCookieName(secure = secureCookies()): string {
  return secure ? "__Secure-authjs.session-token" : "authjs.session-token";
}

export function authSecret(): string {
  const secret = getConfig().AUTH_SECRET;
  if (!secret) {
    throw new ConfigError(
      "Invalid configuration:\n  AUTH_SECRET: required to sign dashboard sessions (e.g. `openssl rand -base64 32`); the embedded demo keeps one in .data/",
    );
  }
  return secret;
}

/** Seconds a session lasts from sign-in (nothing re-issues the cookie before then). */
export function sessionMaxAgeSeconds(): number {
  return Math.round(getConfig().OPERATOR_SESSION_TTL / 1000);
}
