/**
 * PORTAL_FRAME_ANCESTORS: the sources a page framing /portal may come from, as CSP Level 3 writes
 * them for `frame-ancestors`: `'self'`, `'none'` (alone), a scheme (`https:`), or a host with an
 * optional scheme, a `*.` first label, a port or `:*`, and a path. The same list decides, in the
 * browser, which embedding origin the portal posts its messages to (isAllowedAncestor, matching
 * the way CSP does), so a source is checked here against CSP's grammar: anything else would be
 * dropped by the browser, or — with `;`, `,` or a quote — rewrite the header it is written into.
 *
 * Pure, below lib/config.ts (which parses the setting with it), like theme-fields.ts: the portal's
 * page settings, read by the configuration, the proxy, the portal domain and the portal's screens.
 */

// RFC 3986's scheme; CSP's host-char is a letter, digit or hyphen, and `*` may only be the host
// itself or its whole first label.
const SCHEME = "[a-z][a-z0-9+.-]*";
const HOST = "\\*|(?:\\*\\.)?[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.?";
// path-absolute's characters without `;` and `,` (CSP takes those out: they end a directive or a
// policy) and without `'`, which a path never needs and a header reader may take for a keyword.
const PCHAR = "(?:[a-z0-9._~!$&()*+=:@-]|%[0-9a-f]{2})";
const PATH = `/(?:${PCHAR}+(?:/${PCHAR}*)*)?`;
const SCHEME_SOURCE = new RegExp(`^(${SCHEME}):$`, "i");
const HOST_SOURCE = new RegExp(`^(?:(${SCHEME})://)?(${HOST})(?::(\\d+|\\*))?(${PATH})?$`, "i");

type Source =
  | { type: "self" }
  | { type: "scheme"; scheme: string }
  | { type: "host"; scheme: string | null; host: string; port: string | null; path: string };

function parseSource(text: string): Source | null {
  if (text.toLowerCase() === "'self'") return { type: "self" };
  const scheme = SCHEME_SOURCE.exec(text);
  if (scheme) return { type: "scheme", scheme: scheme[1]!.toLowerCase() };
  const host = HOST_SOURCE.exec(text);
  if (!host) return null;
  const [, hostScheme, name, port, path] = host as unknown as [string, string | undefined, string, string | undefined, string | undefined];
  if (port !== undefined && port !== "*" && Number(port) > 65535) return null;
  return { type: "host", scheme: hostScheme?.toLowerCase() ?? null, host: name.toLowerCase(), port: port ?? null, path: path ?? "" };
}

/** The source as the header carries it: scheme and host lowercased (they are case-insensitive), a path as written. */
function serialize(source: Source): string {
  if (source.type === "self") return "'self'";
  if (source.type === "scheme") return `${source.scheme}:`;
  return `${source.scheme ? `${source.scheme}://` : ""}${source.host}${source.port !== null ? `:${source.port}` : ""}${source.path}`;
}

/** The list, or a sentence saying what is wrong with it. */
export function parseFrameAncestors(text: string): string[] | string {
  // CSP separates sources by ASCII whitespace; a comma is taken too, as this variable always has.
  // Any other character (a control character, a non-ASCII space) stays inside a source and fails it.
  const sources = text.split(/[\t\n\f\r ,]+/).filter(Boolean);
  if (sources.length === 0) return "must name at least one source, e.g. 'self' or https://app.example.com";
  const parsed: string[] = [];
  for (const source of sources) {
    if (source.toLowerCase() === "'none'") {
      if (sources.length > 1) return "'none' cannot be combined with other sources";
      return ["'none'"];
    }
    const value = parseSource(source);
    if (!value) {
      return (
        `${JSON.stringify(source)} is not a frame-ancestors source: 'self', 'none', a scheme (https:) or a host ` +
        "([scheme://]host[:port][/path], the host's first label may be *.)"
      );
    }
    parsed.push(serialize(value));
  }
  return parsed;
}

/** The Content-Security-Policy value for /portal's pages. */
export const frameAncestorsHeader = (sources: readonly string[]): string => `frame-ancestors ${sources.join(" ")}`;

type Url = { scheme: string; host: string; port: number | null };

const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443, ws: 80, wss: 443, ftp: 21 };

function parseOrigin(origin: string): Url | null {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/:?#[\]@]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i.exec(origin);
  if (!match) return null;
  const scheme = match[1]!.toLowerCase();
  const port = match[3] === undefined ? null : Number(match[3]);
  // A URL's port is null when it is its scheme's default, as CSP's matching expects.
  return { scheme, host: match[2]!.toLowerCase(), port: port === DEFAULT_PORTS[scheme] ? null : port };
}

// CSP3's "scheme-part matching": an insecure scheme also allows its secure upgrade.
function schemeMatches(a: string, b: string): boolean {
  return a === b || (a === "http" && b === "https") || (a === "ws" && ["wss", "http", "https"].includes(b)) || (a === "wss" && b === "https");
}

const isIp = (host: string) => host.startsWith("[") || /^\d+(\.\d+){3}$/.test(host);

function portMatches(port: string | null, url: Url): boolean {
  if (port === "*") return true;
  const wanted = port === null ? null : Number(port);
  if (wanted === url.port) return true;
  return url.port === null && wanted === (DEFAULT_PORTS[url.scheme] ?? null);
}

/**
 * Whether `origin` (a page framing the portal) is one the list allows, by CSP3's "does url match
 * expression" on the ancestor's origin; `self` is the portal's own origin. A path is not compared:
 * only an origin is known here, and postMessage addresses an origin, within which a path is no
 * boundary.
 */
export function isAllowedAncestor(origin: string, sources: readonly string[], self: string): boolean {
  const url = parseOrigin(origin);
  const own = parseOrigin(self);
  if (!url || !own) return false;
  return sources.some((text) => {
    const source = parseSource(text);
    if (!source) return false;
    if (source.type === "self") {
      // The portal's own origin, or its secure upgrade on the same (or each scheme's default) port.
      if (url.host !== own.host || url.port !== own.port) return false;
      return url.scheme === own.scheme || url.scheme === "https" || url.scheme === "wss" || (own.scheme === "http" && url.scheme === "ws");
    }
    if (source.type === "scheme") return schemeMatches(source.scheme, url.scheme);
    if (source.host === "*" && source.scheme === null && source.port === null) {
      return url.scheme === "http" || url.scheme === "https" || url.scheme === own.scheme;
    }
    if (!schemeMatches(source.scheme ?? own.scheme, url.scheme)) return false;
    // A wildcard never matches an IP address (CSP3); a literal one matches itself, as browsers do.
    if (source.host === "*") {
      if (isIp(url.host)) return false;
    } else if (source.host.startsWith("*.")) {
      if (isIp(url.host) || !url.host.endsWith(source.host.slice(1))) return false;
    } else if (source.host !== url.host) {
      return false;
    }
    return portMatches(source.port, url);
  });
}
