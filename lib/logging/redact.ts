/**
 * What never reaches a log line: credentials by the name of the field that holds them, and secrets
 * by their shape wherever they sit in a string (an error message, a stack, a URL). Applied to every
 * message and field by lib/logger.ts, so a caller cannot forget it.
 */
export const REDACTED = "[redacted]";

// Fields whose value is a credential whatever it looks like (compared lowercased, `-` as `_`).
const SECRET_KEYS = new Set([
  "authorization",
  "proxy_authorization",
  "cookie",
  "set_cookie",
  "password",
  "secret",
  "secrets",
  "api_token",
  "api_key",
  "token",
  "access_token",
  "refresh_token",
  "webhook_url",
  "smtp_url",
  "database_url",
  "encryption_key",
  "auth_secret",
  "metrics_token",
  "config_ciphertext",
]);
// An alert channel's config: its URL is the credential (a Slack or Teams webhook URL is a bearer).
const CHANNEL_CONFIG_KEYS = new Set(["config", "channel_config"]);
const CHANNEL_URL_KEYS = new Set(["url", "webhook_url"]);

// whsec_ (signing secrets), sk_ (API keys), ps_ (portal sessions), pt_ (portal links): the prefix
// stays, so a line still says which kind of secret was there. Ids (ptk_, pss_, whs_) never match.
const TOKEN = /\b(whsec|sk|ps|pt)_[A-Za-z0-9+/=_-]{8,}/g;
// user:password@ in any URL (smtp://, smtps://, postgres://, https://…).
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]*:[^\s/@]*@/gi;
// Slack's incoming-webhook path is its credential.
const SLACK_HOOK = /(hooks\.slack\.com\/services\/)[^\s"'<>]+/gi;

export function redactString(text: string): string {
  if (!text.includes("_") && !text.includes("@") && !text.includes("hooks.")) return text;
  return text.replace(TOKEN, `$1_${REDACTED}`).replace(USERINFO, `$1${REDACTED}@`).replace(SLACK_HOOK, `$1${REDACTED}`);
}

const normalize = (key: string) => key.toLowerCase().replace(/-/g, "_");

/** A copy of `value` with every credential replaced by "[redacted]". Errors become {type, message, stack}. */
export function redact(value: unknown, parentKey = "", depth = 0): unknown {
  if (typeof value === "string") return redactString(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > 8) return "[nested too deep]";
  if (value instanceof Error) {
    return redact({ type: value.name, message: value.message, stack: value.stack }, parentKey, depth + 1);
  }
  if (value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, parentKey, depth + 1));
  const inChannelConfig = CHANNEL_CONFIG_KEYS.has(normalize(parentKey));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const name = normalize(key);
    const secret = SECRET_KEYS.has(name) || (inChannelConfig && CHANNEL_URL_KEYS.has(name));
    out[key] = secret && item !== null && item !== undefined ? REDACTED : redact(item, key, depth + 1);
  }
  return out;
}
