/**
 * PORTAL_FRAME_ANCESTORS: the sources a page framing /portal may come from, as CSP writes them.
 * The same list decides, in the browser, which embedding origin the portal posts its messages to,
 * so a source here must be something both CSP and a plain origin comparison understand: `'self'`,
 * `'none'`, `scheme://host[:port]`, or `https://*.example.com` for any subdomain. No bare `*`: the
 * portal would then talk to any page that frames it.
 */
const SOURCE = /^(https?):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(\d{1,5}))?$/i;

/** The list, or a sentence saying what is wrong with it. */
export function parseFrameAncestors(text: string): string[] | string {
  const sources = text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (sources.length === 0) return "must name at least one source, e.g. 'self' or https://app.example.com";
  for (const source of sources) {
    if (source === "'self'" || source === "'none'") continue;
    if (!SOURCE.test(source)) return `"${source}" is not a frame ancestor ('self', 'none', scheme://host[:port] or https://*.example.com; no path, no bare *)`;
  }
  if (sources.includes("'none'") && sources.length > 1) return "'none' cannot be combined with other sources";
  return sources.map((s) => (s.startsWith("'") ? s : s.toLowerCase()));
}

/** The Content-Security-Policy value for /portal's pages. */
export const frameAncestorsHeader = (sources: readonly string[]): string => `frame-ancestors ${sources.join(" ")}`;

/** Whether `origin` (a page framing the portal) is one the list allows; `self` is the portal's own origin. */
export function isAllowedAncestor(origin: string, sources: readonly string[], self: string): boolean {
  const wanted = /^(https?):\/\/([^/:]+)(?::(\d+))?$/i.exec(origin);
  if (!wanted) return false;
  const [, scheme, host, port] = wanted as unknown as [string, string, string, string | undefined];
  return sources.some((source) => {
    if (source === "'self'") return origin === self;
    const match = SOURCE.exec(source);
    if (!match) return false;
    const [, sScheme, wildcard, sHost, sPort] = match as unknown as [string, string, string | undefined, string, string | undefined];
    if (sScheme.toLowerCase() !== scheme.toLowerCase() || (sPort ?? "") !== (port ?? "")) return false;
    const h = host.toLowerCase();
    return wildcard ? h.endsWith(`.${sHost}`) : h === sHost;
  });
}
