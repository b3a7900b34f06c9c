import { createRequire } from "node:module";
import pino, { type DestinationStream, type Logger as PinoLogger } from "pino";
import { redact, redactString } from "./logging/redact";
import { requestScope } from "./logging/request-scope";

type Level = "debug" | "info" | "warn" | "error";
type Fields = Record<string, unknown>;
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** LOG_LEVEL is read on every call, as before: tests and operators may change it while a process runs. */
function threshold(): number {
  const level = process.env.LOG_LEVEL as Level | undefined;
  return ORDER[level ?? "info"] ?? ORDER.info;
}

/**
 * pino-pretty (a dev dependency) only for a person at a terminal outside production; loaded by a
 * name the bundler cannot follow, and skipped when it is not installed (`npm ci --omit=dev`).
 */
function prettyStream(): DestinationStream | null {
  if (!process.stderr.isTTY || process.env.NODE_ENV === "production" || process.env.LOG_PRETTY === "false") return null;
  try {
    const name = "pino-pretty";
    const pretty = createRequire(import.meta.url)(name) as (options: Record<string, unknown>) => DestinationStream;
    return pretty({ destination: 2, sync: true, colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" });
  } catch {
    return null;
  }
}

function createRoot(): PinoLogger {
  const pretty = prettyStream();
  return pino(
    {
      // The wrapper below filters by LOG_LEVEL; pino writes whatever reaches it.
      level: "debug",
      messageKey: "msg",
      timestamp: pino.stdTimeFunctions.isoTime,
      // Levels as words ("info", not 30): what the tests, the README and log shippers read.
      formatters: pretty ? {} : { level: (label) => ({ level: label }) },
    },
    // process.stderr itself (not pino's own fd writer): one synchronous write per line, through
    // whatever process.stderr.write is at that moment.
    pretty ?? process.stderr,
  );
}

// One root per process, also across Next.js's module reloads and bundles.
const holder = globalThis as unknown as { __webhookAdminLogger?: PinoLogger };
const root = (holder.__webhookAdminLogger ??= createRoot());

export type Logger = {
  debug: (message: string, fields?: Fields) => void;
  info: (message: string, fields?: Fields) => void;
  warn: (message: string, fields?: Fields) => void;
  error: (message: string, fields?: Fields) => void;
  /** A logger whose every line carries `bindings` (e.g. message_id, delivery_id, endpoint_id). */
  child: (bindings: Fields) => Logger;
};

function wrap(target: PinoLogger): Logger {
  const write = (level: Level) => (message: string, fields?: Fields) => {
    if (ORDER[level] < threshold()) return;
    const msg = redactString(message);
    // Every line written while a request is served names it (lib/logging/request-scope.ts).
    const scope = requestScope();
    const all = scope ? { req_id: scope.id, ...fields } : fields;
    if (all) target[level](redact(all) as Fields, msg);
    else target[level](msg);
  };
  return {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    child: (bindings) => wrap(target.child(redact(bindings) as Fields)),
  };
}

/**
 * JSON lines on stderr — `{"level":"info","time":"…","pid":…,"hostname":"…",…fields,"msg":"…"}` —
 * with credentials redacted (lib/logging/redact.ts), so both processes' logs can be grepped and
 * shipped alike.
 */
export const logger: Logger = wrap(root);
