import ipaddr from "ipaddr.js";

/** A range of ALLOWED_ENDPOINT_CIDRS, parsed once at start. */
export type AllowedCidr = { text: string; range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

/**
 * What the operator allows: the create-time check and the send-time egress guard both decide by
 * it, through the same vetAddress, so a URL accepted at create is not refused at send and back.
 */
export type UrlPolicy = { allowHttp: boolean; allowPrivate: boolean; allowCidrs: readonly AllowedCidr[] };

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

const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");
// RFC 8215's local-use prefix and the rest of 64:ff9b::/32: the translator's operator picks the
// prefix length (RFC 6052 §2.2 puts the IPv4 at a different offset for each of /48, /56, /64 and
// /96), so no offset can be trusted from outside. They are never global, so they are refused whole.
const NAT64_LOCAL = ipaddr.parseCIDR("64:ff9b::/32");

/**
 * The IPv4 address an IPv6 address carries, in every form that has one, read from its bytes:
 * ipaddr.js's toIPv4Address() throws for all of them but the mapped form, and an address comes
 * from a DNS answer anyone can write, so nothing here may throw.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = address.toByteArray();
  const ipv4At = (offset: number, invert = false) => new ipaddr.IPv4(bytes.slice(offset, offset + 4).map((b) => (invert ? b ^ 0xff : b)));
  const range = address.range();
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (RFC 6145's translated form).
  if (range === "ipv4Mapped" || range === "rfc6145") return ipv4At(12);
  // NAT64's well-known prefix 64:ff9b::/96 (RFC 6052) carries it in the last 32 bits.
  if (address.match(NAT64_WELL_KNOWN as [ipaddr.IPv6, number])) return ipv4At(12);
  // 6to4 (2002::/16) carries it in bits 16–47.
  if (range === "6to4") return ipv4At(2);
  // Teredo (2001::/32) carries the client's address inverted in the last 32 bits.
  if (range === "teredo") return ipv4At(12, true);
  // The deprecated IPv4-compatible form ::a.b.c.d.
  if (bytes.slice(0, 12).every((b) => b === 0)) return ipv4At(12);
  return null;
}

/**
 * Why an address may not be connected to, or null when it is a public unicast address. Only
 * globally routable unicast passes; any IPv6 form that embeds an IPv4 address is judged by it.
 * Total: an address that cannot be judged is refused, never an exception.
 */
export function forbiddenAddressReason(ip: string): string | null {
  try {
    return judgeAddress(ip);
  } catch {
    return `${ip.slice(0, 60)} cannot be vetted`;
  }
}

function judgeAddress(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return "not an IP address";
  let address = ipaddr.parse(ip);
  if (address.kind() === "ipv6") {
    const v6 = address as ipaddr.IPv6;
    const inner = embeddedIPv4(v6);
    if (inner) {
      const innerReason = judgeAddress(inner.toString());
      if (innerReason) return `${v6.toString()} embeds ${innerReason}`;
      address = inner;
    } else if (v6.match(NAT64_LOCAL as [ipaddr.IPv6, number])) {
      return `${v6.toString()} is a local-use NAT64 address`;
    }
  }
  const range = address.range();
  if (range === "unicast") return null;
  return `${address.toString()} is a ${range} address`;
}

/** Parses `10.20.0.0/16,::1/128`; throws with the first entry that is not a CIDR. */
export function parseCidrList(text: string): AllowedCidr[] {
  return text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [address = "", bits] = entry.split("/");
      // ipaddr.js also reads 127.1 or 0x7f.0.0.1; an operator's allowlist should say what it means.
      const wellFormed = address.includes(":") ? ipaddr.IPv6.isValidCIDR(entry) : ipaddr.IPv4.isValidCIDRFourPartDecimal(entry);
      if (!wellFormed || bits === undefined) throw new Error(`"${entry}" is not a CIDR like 10.20.0.0/16 or fd00::/8`);
      let [range, prefix] = ipaddr.parseCIDR(entry);
      // Addresses are compared in their IPv4 form when they are IPv4-mapped (see vetAddress).
      if (range.kind() === "ipv6" && (range as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
        [range, prefix] = [(range as ipaddr.IPv6).toIPv4Address(), prefix - 96];
      }
      return { text: entry, range: [range, prefix] };
    });
}

function isAllowedByCidr(address: ipaddr.IPv4 | ipaddr.IPv6, cidrs: readonly AllowedCidr[]): boolean {
  return cidrs.some(({ range }) => range[0].kind() === address.kind() && address.match(range as never));
}

/**
 * Why `ip` may not be connected to under the policy, or null when it may: anything when
 * ALLOW_PRIVATE_ENDPOINTS is on, an address inside ALLOWED_ENDPOINT_CIDRS, or a public unicast one.
 */
export function vetAddress(ip: string, policy: Pick<UrlPolicy, "allowPrivate" | "allowCidrs">): string | null {
  if (policy.allowPrivate) return null;
  try {
    if (!ipaddr.isValid(ip)) return "not an IP address";
    let address = ipaddr.parse(ip);
    if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
    if (isAllowedByCidr(address, policy.allowCidrs)) return null;
  } catch {
    return `${ip.slice(0, 60)} cannot be vetted`;
  }
  return forbiddenAddressReason(ip);
}

// The names isInternalName refuses, judged by the address they stand for where there is one.
const NAMED_ADDRESSES: [RegExp, string[]][] = [
  [/(^|\.)localhost$/, ["127.0.0.1", "::1"]],
  [/^metadata(\.google\.internal)?$/, ["169.254.169.254"]],
];

/** Whether an obviously internal name is allowed after all: the policy allows what it stands for. */
function internalNameAllowed(host: string, policy: UrlPolicy): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  const named = NAMED_ADDRESSES.find(([pattern]) => pattern.test(name));
  // Other internal names (*.internal, *.local) resolve to anything; with an allowlist in force the
  // send-time guard judges the addresses they resolve to.
  if (!named) return policy.allowCidrs.length > 0;
  return named[1].some((ip) => vetAddress(ip, policy) === null);
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string; invalid?: boolean };

/** A URL within the length bound that parses, or why it is not one. */
function parseUrl(raw: string): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `The URL is longer than ${MAX_URL_LENGTH} characters.`, invalid: true };
  try {
    return { ok: true, url: new URL(raw) };
  } catch {
    return { ok: false, reason: "The URL is not a valid absolute URL.", invalid: true };
  }
}

/**
 * The create-time check: scheme, credentials, and hosts that are obviously internal. A courtesy
 * to the person typing the URL — the egress guard re-checks the address actually connected to.
 */
export function checkEndpointUrl(raw: string, policy: UrlPolicy): UrlCheck {
  const parsed = parseUrl(raw);
  if (!parsed.ok) return parsed;
  const { url } = parsed;
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, reason: `The URL scheme must be https${policy.allowHttp ? " or http" : ""}, not ${url.protocol.replace(":", "")}.` };
  }
  if (url.protocol === "http:" && !policy.allowHttp) {
    return { ok: false, reason: "Only https:// URLs are accepted (the operator has not set ALLOW_HTTP_ENDPOINTS)." };
  }
  if (url.username || url.password) return { ok: false, reason: "The URL must not carry credentials; use custom headers instead." };
  const refused = hostProblem(url, policy);
  return refused ? { ok: false, reason: refused } : { ok: true, url };
}

/** Why a URL's host may not be sent to (an obviously internal name, a forbidden literal address), or null. */
function hostProblem(url: URL, policy: UrlPolicy): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isInternalName(host) && !policy.allowPrivate && !internalNameAllowed(host, policy)) return `The host ${host} is internal.`;
  if (ipaddr.isValid(host)) {
    const reason = vetAddress(host, policy);
    if (reason) return `The URL points at a forbidden address: ${reason}.`;
  }
  return null;
}

/**
 * A queue destination's broker URL (amqp:// or amqps://, redis:// or rediss://), at create time:
 * its scheme, and its host under the same rules as an endpoint URL's. Credentials belong in it
 * (they are stored encrypted). The unencrypted scheme carries them in the clear, so it takes
 * ALLOW_HTTP_ENDPOINTS as http:// does.
 */
export function checkBrokerUrl(raw: string, policy: UrlPolicy, schemes: { plain: string; tls: string }): UrlCheck {
  const parsed = parseUrl(raw);
  if (!parsed.ok) return parsed;
  const { url } = parsed;
  const scheme = url.protocol.replace(":", "");
  if (scheme !== schemes.plain && scheme !== schemes.tls) {
    return { ok: false, reason: `The URL scheme must be ${schemes.tls} or ${schemes.plain}, not ${scheme}.`, invalid: true };
  }
  if (!url.hostname) return { ok: false, reason: "The URL has no host.", invalid: true };
  if (scheme === schemes.plain && !policy.allowHttp) {
    return { ok: false, reason: `Only ${schemes.tls}:// is accepted: ${schemes.plain}:// sends the credentials in the clear (the operator has not set ALLOW_HTTP_ENDPOINTS).` };
  }
  const refused = hostProblem(url, policy);
  return refused ? { ok: false, reason: refused } : { ok: true, url };
}
