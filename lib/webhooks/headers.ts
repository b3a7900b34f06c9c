export const MAX_CUSTOM_HEADERS = 20;

/**
 * What a custom header's value reads as to whoever may not see it (a viewer, a portal link without
 * `view_secrets`, the attempt log). Sent back unchanged in an update, it keeps the stored value.
 */
export const REDACTED_HEADER_VALUE = "[redacted]";

export function maskHeaderValues(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(headers).map((name) => [name, REDACTED_HEADER_VALUE]));
}

/** An update's headers, where a value still masked keeps what is stored under that name. */
export function unmaskHeaderValues(update: Record<string, string>, stored: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(update).map(([name, value]) => [name, value === REDACTED_HEADER_VALUE && name in stored ? stored[name]! : value]),
  );
}
/**
 * The custom headers an update stores, and the names of stored values it drops. `carry`: stored
 * values may go on (a value sent back masked keeps what is stored, headers not sent are kept);
 * else only values the caller sent itself stay — what it would have carried from the stored set
 * (every header when it sent none, a masked value when it did) is dropped.
 */
export function headersForUpdate(
  update: Record<string, string> | undefined,
  stored: Record<string, string>,
  carry: boolean,
): { headers: Record<string, string> | undefined; dropped: string[] } {
  if (carry) return { headers: update !== undefined ? unmaskHeaderValues(update, stored) : undefined, dropped: [] };
  const carried = (name: string, value: string) => value === REDACTED_HEADER_VALUE && name in stored;
  const dropped = update === undefined ? Object.keys(stored) : Object.entries(update).filter(([n, v]) => carried(n, v)).map(([n]) => n);
  const sent = Object.entries(update ?? {}).filter(([n, v]) => !carried(n, v));
  return { headers: update === undefined && dropped.length === 0 ? undefined : Object.fromEntries(sent), dropped: dropped.sort() };
}

export const MAX_CUSTOM_HEADER_BYTES = 4096;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// What undici can send: it writes header bytes as Latin-1 and refuses, only when the attempt is
// made, anything but tab, space, visible ASCII and U+0080–U+00FF. Of those, the C1 controls are
// refused here too: tab, space, visible ASCII and printable Latin-1 remain.
const HEADER_VALUE = /^[\t\x20-\x7e\xa0-\xff]*$/;

// Headers the transport, the signature or a cloud metadata service owns: a customer setting them
// could break framing, forge a signature or turn a delivery into a metadata request.
const DENIED = new Set([
  "host",
  "content-length",
  "content-type",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "cookie",
  "metadata",
  "metadata-flavor",
  "x-google-metadata-request",
  "x-aws-ec2-metadata-token",
  "x-aws-ec2-metadata-token-ttl-seconds",
  "x-forwarded-for",
  "x-forwarded-host",
]);
const DENIED_PREFIXES = ["webhook-", "svix-", "proxy-", "sec-", ":"];

/** Problems with a set of custom headers, as `{path, message}`; empty when they may be sent. */
export function customHeaderProblems(headers: Record<string, unknown>): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const entries = Object.entries(headers);
  if (entries.length > MAX_CUSTOM_HEADERS) problems.push({ path: "headers", message: `at most ${MAX_CUSTOM_HEADERS} headers` });
  let bytes = 0;
  for (const [name, value] of entries) {
    const path = `headers.${name}`;
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) problems.push({ path, message: "is not a valid header name" });
    else if (DENIED.has(lower) || DENIED_PREFIXES.some((p) => lower.startsWith(p))) {
      problems.push({ path, message: "is set by Webhook Admin and cannot be overridden" });
    }
    if (typeof value !== "string") problems.push({ path, message: "must be a string" });
    else if (!HEADER_VALUE.test(value)) {
      problems.push({ path, message: "must be visible ASCII or Latin-1 characters, spaces or tabs (no CR, LF or other control characters)" });
    }
    bytes += Buffer.byteLength(name) + (typeof value === "string" ? Buffer.byteLength(value) : 0);
  }
  if (bytes > MAX_CUSTOM_HEADER_BYTES) problems.push({ path: "headers", message: `at most ${MAX_CUSTOM_HEADER_BYTES} bytes in all` });
  return problems;
}
