import { z } from "zod";
import { databaseUrlProblem } from "./database-url";
import { parseDuration } from "./duration";
import { parseFrameAncestors } from "./portal-page/frame-ancestors";
import { themeAccent, themeLogoUrl, themeName } from "./portal-page/theme-fields";
import { parseCidrList } from "./webhooks/url-safety";

const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const ms = parseDuration(text);
      if (ms === null) {
        ctx.addIssue({ code: "custom", message: `"${text}" is not a duration (use 250ms, 5s, 5m, 2h or 5d)` });
        return z.NEVER;
      }
      return ms;
    });

/** A duration of at least a second: the retention settings (a shorter one is a mistake, not a policy). */
const atLeastASecond = (fallback: string) =>
  duration(fallback).refine((ms) => ms >= 1_000, { message: "must be at least 1s" });

const integer = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"])
    .default(fallback ? "true" : "false")
    .transform((v) => v === "true" || v === "1" || v === "yes");

const durations = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const parts = text.split(",").map((part) => parseDuration(part));
      if (parts.length === 0 || parts.some((ms) => ms === null)) {
        ctx.addIssue({ code: "custom", message: `"${text}" must be a comma-separated list of durations, e.g. 0,5s,5m` });
        return z.NEVER;
      }
      return parts as number[];
    });

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];
const isSecureOrLoopback = (url: URL) => url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.includes(url.hostname));

/**
 * A connection URL with one host, or several separated by commas — a failover pair's form
 * (docs/operating.md#postgresql-failover), which the WHATWG URL parser refuses — parsed as the
 * connections will parse it (lib/database-url.ts), target_session_attrs included.
 */
const databaseUrl = z
  .string()
  .superRefine((value, ctx) => {
    const problem = databaseUrlProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .optional();

const EnvSchema = z.object({
  DATABASE_URL: databaseUrl,
  /**
   * A streaming replica of DATABASE_URL's database (same form): the message log, search, the
   * statistics and the attempt log read from it (docs/scaling.md#read-replicas-for-the-dashboards-queries).
   */
  DATABASE_READ_URL: databaseUrl,
  PORT: integer(3000, 1, 65535),
  /** Read by lib/db/client.ts itself (the CLI has no config); parsed here so a bad value stops the start. */
  DATABASE_POOL_SIZE: integer(10, 1, 1000),
  APP_URL: z.string().url().optional(),
  DELIVERY_SCHEDULE: durations("0,5s,5m,30m,2h,5h,10h,10h"),
  DELIVERY_TIMEOUT: duration("15s"),
  RESPONSE_BODY_LIMIT: integer(1024, 0, 1_048_576),
  ENDPOINT_MAX_CONCURRENCY: integer(10, 1, 1000),
  /** Test sends (POST /endpoints/{id}/test) one endpoint takes per minute; more are answered 429. */
  ENDPOINT_TEST_SENDS_PER_MINUTE: integer(10, 1, 10_000),
  /** Endpoints one consumer may have when a portal session creates them (API keys and operators are not bound). */
  PORTAL_MAX_ENDPOINTS: integer(20, 1, 10_000),
  CIRCUIT_FAILURE_THRESHOLD: integer(5, 1, 1000),
  CIRCUIT_OPEN_FOR: duration("30s"),
  ENDPOINT_DISABLE_AFTER: duration("5d"),
  ALERT_FAILING_AFTER: duration("1h"),
  /** How long GET /endpoints/{id}/poll waits for a message when it has none to give (a long-poll). */
  POLL_WAIT: duration("30s"),
  /**
   * How old a message must be before a poll gives it: ids are taken before their transaction
   * commits, so a younger one may still be overtaken by one with a smaller id (ADR 0048).
   */
  POLL_SETTLE: duration("1s"),
  ALERT_THROTTLE: duration("1h"),
  /** One deadline for each alert sent (Slack, Teams, Chatwork, webhook, SMTP). */
  ALERT_TIMEOUT: duration("10s"),
  /** Delay before each try of one alert to one channel or recipient; then it is `failed`. */
  ALERT_RETRY_SCHEDULE: durations("0,10s,1m"),
  SECRET_ROTATION_OVERLAP: duration("24h"),
  IDEMPOTENCY_TTL: duration("24h"),
  /** How long a duplicate of a Svix POST waits for its key's first answer before a 409. */
  IDEMPOTENCY_WAIT: duration("30s"),
  /** How long an event id stays taken where ingest asks event ids to be unique (the Svix API). */
  EVENT_ID_TTL: duration("24h"),
  MAX_PAYLOAD_BYTES: integer(1_048_576, 1, 64 * 1_048_576),
  /** The whole body of POST /messages/batch (up to 100 messages, each payload still at most MAX_PAYLOAD_BYTES). */
  MAX_BATCH_BYTES: integer(5_242_880, 1, 1024 * 1_048_576),
  ALLOW_PRIVATE_ENDPOINTS: flag(false),
  ALLOW_HTTP_ENDPOINTS: flag(false),
  /** Comma-separated CIDRs let through the SSRF guard even when private, e.g. `10.20.0.0/16`. */
  ALLOWED_ENDPOINT_CIDRS: z
    .string()
    .default("")
    .transform((text, ctx) => {
      try {
        return parseCidrList(text);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 32 bytes written as 64 hex characters")
    .optional(),
  /** Retired keys, comma-separated, still accepted for decryption until `secrets reencrypt` has run. */
  ENCRYPTION_KEYS_PREVIOUS: z
    .string()
    .regex(/^([0-9a-fA-F]{64})(,[0-9a-fA-F]{64})*$/, "must be comma-separated 64-hex-character keys")
    .optional(),
  WORKER_CONCURRENCY: integer(50, 1, 10_000),
  WORKER_METRICS_PORT: integer(9464, 0, 65535),
  /** Where the worker's /metrics and /health listen: this machine only, unless the operator says so. */
  WORKER_METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  DELIVERY_BATCH_SIZE: integer(100, 1, 1000),
  DELIVERY_MAX_IN_FLIGHT: integer(1000, 1, 100_000),
  API_RATE_LIMIT_PER_SECOND: integer(1000, 1, 1_000_000),
  /** Failed API-key authentications per client address per minute, per web process; beyond: 429. */
  API_AUTH_FAILURES_PER_MINUTE: integer(60, 1, 1_000_000),
  /** The web app is behind a proxy that appends the client's address to X-Forwarded-For. */
  TRUST_PROXY: flag(false),
  SLACK_API_BASE: z.string().url().default("https://hooks.slack.com"),
  TEAMS_API_BASE: z.string().url().optional(),
  CHATWORK_API_BASE: z.string().url().default("https://api.chatwork.com/v2"),
  SMTP_URL: z
    .string()
    .refine((text) => URL.canParse(text) && ["smtp:", "smtps:"].includes(new URL(text).protocol), "must be an smtp:// or smtps:// URL")
    .optional(),
  ALERT_EMAIL_FROM: z.string().default("Webhook Admin <alerts@localhost>"),
  /** A recovery's rate when its request names none (per second, per run). */
  RECOVERY_DEFAULT_RATE: integer(20, 1, 1000),
  /** The most items one recovery run takes; a scope beyond it is cut at its oldest this many (`selection.capped`). */
  RECOVERY_MAX_ITEMS: integer(100_000, 1, 10_000_000),
  /** Items a recovery run's selection freezes per statement: the first batch in the request, the rest a worker tick each. */
  RECOVERY_SELECT_BATCH: integer(5_000, 1, 100_000),
  /** The most attempts per second all of one consumer's running recoveries make together. */
  RECOVERY_CONSUMER_RATE: integer(1000, 1, 100_000),
  /** How often a worker feeds running recoveries' items into the queue and checks their stop rules. */
  RECOVERY_TICK: duration("250ms"),
  /** A recovery's rate starts at an eighth of its target and doubles this often. */
  RECOVERY_RAMP_EVERY: duration("10s"),
  /**
   * A recovery item starts within this long of when its claim's round trip usually ends, or goes
   * back unattempted. The claim logs a run's sends at its own clock and lets no 1,050 ms of its log
   * hold more than the run's rate (claim-due-deliveries.sql, v_run_window); sends that leave later
   * than that after their claim — the worker's event loop or its core busy elsewhere — would bunch
   * at the receiver with the next window's, which leave on time. 40 of the 50 ms by default: the
   * rest is the way to the receiver. Only the delay beyond the usual round trip counts: a database
   * that is always far away delays every send alike, and sends delayed alike do not bunch.
   */
  RECOVERY_LATE_START: duration("40ms"),
  /**
   * Messages older than this whose deliveries have all ended are removed by the sweep, with their
   * deliveries, attempts and queue rows (lib/retention). At least 1s.
   */
  RETENTION_PERIOD: atLeastASecond("30d"),
  /** How often one worker runs the sweep (dead workers, lost wake-ups, auto-disable, retention). */
  SWEEP_INTERVAL: atLeastASecond("1m"),
  /** Hourly rollup rows (GET /stats by the hour and day) are kept this long. */
  STATS_RETENTION: atLeastASecond("400d"),
  /** Minute rollup rows (GET /stats by the minute) are kept this long. */
  STATS_MINUTE_RETENTION: atLeastASecond("8d"),
  /** Audit events and the alert log are kept this long. */
  AUDIT_RETENTION: atLeastASecond("400d"),
  /** A consumer with at most this many messages is erased within DELETE /consumers/{consumer} (204); a larger one in the background (202). */
  ERASURE_INLINE_MESSAGES: integer(10_000, 0, 1_000_000),
  /** Set by `npm start` for the embedded demo only: serves the demo receivers under /api/demo/receiver. */
  WEBHOOK_ADMIN_DEMO: flag(false),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** Bearer token for the web app's GET /api/metrics; unset, that route is 404. */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters (e.g. `openssl rand -hex 32`)").optional(),
  /** Web and worker apply migrations when they start; false: they refuse to start while the schema is behind (run `npm run migrate`). */
  MIGRATE_ON_START: flag(true),
  /** After SIGTERM the web app answers /api/health/ready 503 this long while still serving, then closes. */
  SHUTDOWN_DELAY: duration("5s"),
  /** Signs dashboard sessions; required by the web app with DATABASE_URL (the embedded demo keeps one). */
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -base64 32`)").optional(),
  OPERATOR_SESSION_TTL: duration("12h"),
  /** Failed sign-ins allowed per email, and per client address, within LOGIN_FAILURE_WINDOW. */
  LOGIN_MAX_FAILURES_PER_EMAIL: integer(5, 1, 10_000),
  LOGIN_MAX_FAILURES_PER_ADDRESS: integer(20, 1, 100_000),
  LOGIN_FAILURE_WINDOW: duration("15m"),
  /** How long an emailed sign-in link works (once), where SMTP_URL is set. */
  SIGN_IN_LINK_TTL: duration("10m"),
  /**
   * Single sign-on (OIDC) through this issuer; its other settings are checked together at start
   * (lib/auth/oidc-settings.ts), where the issuer's discovery document is fetched.
   */
  OIDC_ISSUER: z
    .string()
    .refine((text) => URL.canParse(text) && isSecureOrLoopback(new URL(text)), "must be an https:// URL (http:// only on localhost or 127.0.0.1)")
    .optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  /** The sign-in button's text; unset, "Sign in with single sign-on" in the page's language. */
  OIDC_LABEL: z.string().max(60, "must be at most 60 characters").optional(),
  /** An unknown but verified email becomes an operator, with the role OIDC_ROLE_MAP gives. */
  OIDC_AUTO_CREATE: flag(false),
  /** The ID token's claim holding the person's groups. */
  OIDC_ROLE_CLAIM: z.string().min(1).default("groups"),
  /** `group=role,…,*=role` (lib/operators/oidc-role-map.ts); set, every sign-in sets the role from it. */
  OIDC_ROLE_MAP: z.string().optional(),
  /** false: only single sign-on signs in (no password, no emailed link); allowed only with OIDC_ISSUER. */
  PASSWORD_SIGN_IN: flag(true),
  /** A portal link's and a portal session's lifetimes when the link's request names none. */
  PORTAL_LINK_TTL: duration("15m"),
  PORTAL_SESSION_TTL: duration("12h"),
  /** Origins (comma-separated) whose pages may call the API with a portal session; default none. */
  PORTAL_CORS_ORIGINS: z
    .string()
    .default("")
    .transform((text, ctx) => {
      const origins = text.split(",").map((o) => o.trim()).filter(Boolean);
      for (const origin of origins) {
        if (!/^https?:\/\/[^/\s*]+$/.test(origin)) {
          ctx.addIssue({ code: "custom", message: `"${origin}" is not an origin (scheme://host[:port], no path, no *)` });
          return z.NEVER;
        }
      }
      return origins;
    }),
  /** Who may frame /portal: any CSP frame-ancestors source ('self', https://*.example.com, http://localhost:*, https:), space or comma separated. */
  PORTAL_FRAME_ANCESTORS: z
    .string()
    .default("'self'")
    .transform((text, ctx) => {
      const parsed = parseFrameAncestors(text);
      if (typeof parsed === "string") {
        ctx.addIssue({ code: "custom", message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
  /** The portal's look when a link's theme names none: product name, an https logo, an accent colour. */
  PORTAL_NAME: themeName.default("Webhooks"),
  PORTAL_LOGO_URL: themeLogoUrl.optional(),
  PORTAL_ACCENT: themeAccent.optional(),
});

/** Every variable the configuration reads: the tests unset them all before setting their own. */
export const CONFIG_KEYS: readonly string[] = Object.keys(EnvSchema.shape);

export type Config = Omit<z.infer<typeof EnvSchema>, "APP_URL" | "ENCRYPTION_KEY" | "ENCRYPTION_KEYS_PREVIOUS"> & {
  APP_URL: string;
  ENCRYPTION_KEY: Buffer;
  ENCRYPTION_KEYS_PREVIOUS: Buffer[];
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses an environment; throws a ConfigError naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const input = Object.fromEntries(
    Object.keys(EnvSchema.shape).map((key) => [key, env[key] === "" ? undefined : env[key]]),
  );
  const result = EnvSchema.safeParse(input);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const parsed = result.data;
  if (!parsed.ENCRYPTION_KEY) {
    throw new ConfigError(
      "Invalid configuration:\n  ENCRYPTION_KEY: required (32 bytes as 64 hex characters, e.g. `openssl rand -hex 32`)",
    );
  }
  return {
    ...parsed,
    APP_URL: (parsed.APP_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, ""),
    ENCRYPTION_KEY: Buffer.from(parsed.ENCRYPTION_KEY, "hex"),
    ENCRYPTION_KEYS_PREVIOUS: (parsed.ENCRYPTION_KEYS_PREVIOUS ?? "")
      .split(",")
      .filter(Boolean)
      .map((hex) => Buffer.from(hex, "hex")),
  };
}

let cached: Config | undefined;

/** The process's configuration, parsed once on first use. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Tests change the environment between cases; this makes the next getConfig() read it again. */
export function resetConfigForTests(): void {
  cached = undefined;
}
