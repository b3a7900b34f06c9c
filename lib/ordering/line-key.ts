import { createHash } from "node:crypto";

/** A line's name is kept in the queue's index: a longer value is named by its hash instead. */
const MAX_LINE_KEY_CHARS = 128;

/**
 * The line a message waits in on an ordered endpoint: the value at its ordering key's dotted path
 * in the payload — a string as it is, a number or a boolean as its JSON text. A payload without a
 * usable value there (missing, null, an object or an array) waits in the line named "", as does
 * every message when the endpoint has no key. lib/deliveries/lines.sql's webhook_admin_line_key is
 * the same rule in SQL.
 */
export function lineKeyOf(payload: unknown, path: string | null): string {
  if (path === null) return "";
  let value: unknown = payload;
  for (const segment of path.split(".")) {
    if (Array.isArray(value) && /^\d+$/.test(segment)) value = value[Number(segment)];
    else if (typeof value === "object" && value !== null && !Array.isArray(value) && Object.hasOwn(value, segment)) value = (value as Record<string, unknown>)[segment];
    else return "";
  }
  const key = typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? JSON.stringify(value) : "";
  return key.length > MAX_LINE_KEY_CHARS ? `#${createHash("sha256").update(key).digest("hex")}` : key;
}
