import ipaddr from "ipaddr.js";

export type EgressPolicy = { allowHttp: boolean; allowPrivate: boolean };

const MAX_URL_LENGTH = 2048;

/** Names that always mean "this machine or its private network", whatever DNS says. */
function isInternalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return (
    name === "localhost" ||
    name.endsWith(".localhost") ||
    name.endsWith(".internal") ||
    name.endsWith(".local") ||
    name === "metadata" ||
    name === "metadata.google.internal"
  );
}

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  const bytes = address.toByteArray();
  if (range === "ipv4Mapped" || range === "rfc6145") return address.toIPv4Address();
  // NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48) carries the IPv4 address in the last 32 bits.
  if (range === "rfc6052") return new ipaddr.IPv4(bytes.slice(12, 16));
  // 6to4 (2002::/16) carries it in bits 16–47.
  if (range === "6to4") return new ipaddr.IPv4(bytes.slice(2, 6));
  // Teredo (2001::/32) carries the client's address inverted in the last 32 bits.
  if (range === "teredo") return new ipaddr.IPv4(bytes.slice(12, 16).map((b) => b ^ 0xff));
  // The deprecated IPv4-compatible form ::a.b.c.d.
  if (bytes.slice(0, 12).every((b) => b === 0)) return new ipaddr.IPv4(bytes.slice(12, 16));
  return null;
}

/**
 * Why an address may not be connected to, or null when it is a public unicast address. Only
 * globally routable unicast passes; any IPv6 form that embeds an IPv4 address is judged by it.
 */
export function forbiddenAddressReason(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return "not an IP address";
  let address = ipaddr.parse(ip);
  if (address.kind() === "ipv6") {
    const inner = embeddedIPv4(address as ipaddr.IPv6);
    if (inner) {
      const innerReason = forbiddenAddressReason(inner.toString());
      if (innerReason) return innerReason;
      address = inner;
    }
  }
  const range = address.range();
  if (range === "unicast" || (address.kind() === "ipv6" && ["6to4", "teredo", "rfc6052", "ipv4Mapped"].includes(range))) {
    return null;
  }
  return `${address.toString()} is a ${range} address`;
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string; invalid?: boolean };

/**
 * The create-time check: scheme, credentials, and hosts that are obviously internal. A courtesy
 * to the person typing the URL — the egress guard re-checks the address actually connected to.
 */
export function checkEndpointUrl(raw: string, policy: EgressPolicy): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `The URL is longer than ${MAX_URL_LENGTH} characters.`, invalid: true };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "The URL is not a valid absolute URL.", invalid: true };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, reason: `The URL scheme must be https${policy.allowHttp ? " or http" : ""}, not ${url.protocol.replace(":", "")}.` };
  }
  if (url.protocol === "http:" && !policy.allowHttp) {
    return { ok: false, reason: "Only https:// URLs are accepted (the operator has not set ALLOW_HTTP_ENDPOINTS)." };
  }
  if (url.username || url.password) return { ok: false, reason: "The URL must not carry credentials; use custom headers instead." };
  if (!policy.allowPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (isInternalName(host)) return { ok: false, reason: `The host ${host} is internal.` };
    if (ipaddr.isValid(host)) {
      const reason = forbiddenAddressReason(host);
      if (reason) return { ok: false, reason: `The URL points at a forbidden address: ${reason}.` };
    }
  }
  return { ok: true, url };
}
