import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../lib/config";
import { accentPalette, contrast } from "../../lib/portal/accent";
import { frameAncestorsHeader, isAllowedAncestor, parseFrameAncestors } from "../../lib/portal-page/frame-ancestors";

/** The portal's runtime config: who may frame it (and hear its messages), and the accent it wears. */
describe("PORTAL_FRAME_ANCESTORS", () => {
  it("defaults to 'self' and takes CSP sources, space or comma separated", () => {
    expect(parseConfig(process.env).PORTAL_FRAME_ANCESTORS).toEqual(["'self'"]);
    const config = parseConfig({ ...process.env, PORTAL_FRAME_ANCESTORS: "'self', https://App.example.com  https://*.acme.example http://localhost:5173" });
    expect(frameAncestorsHeader(config.PORTAL_FRAME_ANCESTORS)).toBe("frame-ancestors 'self' https://app.example.com https://*.acme.example http://localhost:5173");
  });

  // CSP Level 3's frame-ancestors grammar: ancestor-source-list = ancestor-source *(ws ancestor-source) / 'none';
  // ancestor-source = scheme-source / host-source / 'self'.
  it.each([
    ["http://localhost:*", ["http://localhost:*"]],
    ["localhost:*", ["localhost:*"]],
    ["https://app.example.com:*", ["https://app.example.com:*"]],
    ["https:", ["https:"]],
    ["HTTPS: wss: custom+scheme.x-y:", ["https:", "wss:", "custom+scheme.x-y:"]],
    ["'self'", ["'self'"]],
    ["'SELF'", ["'self'"]],
    ["'none'", ["'none'"]],
    ["app.example.com", ["app.example.com"]],
    ["*.example.com", ["*.example.com"]],
    ["https://*.example.com:8443", ["https://*.example.com:8443"]],
    ["*", ["*"]],
    ["https://*", ["https://*"]],
    ["https://App.Example.COM/Embed/", ["https://app.example.com/Embed/"]],
    ["https://app.example.com/p/~user/(x)/a%20b/*/@:!$&+=", ["https://app.example.com/p/~user/(x)/a%20b/*/@:!$&+="]],
    ["https://app.example.com/", ["https://app.example.com/"]],
    ["http://127.0.0.1:5173", ["http://127.0.0.1:5173"]],
    ["example.com.", ["example.com."]],
    ["https://xn--bcher-kva.example", ["https://xn--bcher-kva.example"]],
    ["'self',https://a.example\thttps://b.example\nhttps://c.example\r\n\fd.example ,", ["'self'", "https://a.example", "https://b.example", "https://c.example", "d.example"]],
  ])("takes the CSP source list %j", (text, expected) => {
    expect(parseFrameAncestors(text)).toEqual(expected);
    const config = parseConfig({ ...process.env, PORTAL_FRAME_ANCESTORS: text });
    expect(frameAncestorsHeader(config.PORTAL_FRAME_ANCESTORS)).toBe(`frame-ancestors ${expected.join(" ")}`);
  });

  it.each([
    // Not an ancestor source: other keywords, nonces and hashes.
    "'unsafe-inline'", "'unsafe-eval'", "'strict-dynamic'", "'report-sample'", "'nonce-abc123'", "'sha256-AAAA'", "https://a.example 'unsafe-inline'",
    // '*' anywhere but as the host or its whole first label.
    "https://a.*.example.com", "https://*example.com", "https://ex*ample.com", "*.*.example.com", "*.", "https://*.example.*", "*://app.example.com",
    // What would end the directive or the policy, or quote it.
    "https://app.example.com;script-src *", "https://app.example.com/a;b", "'self", "self'", "\"https://a.example\"", "https://a.example/it's",
    // Control characters and spaces CSP does not split on stay inside a source, which then fails.
    "https://a.example\u000bhttps://b.example", "https://a.example\u0000", "https://a.example\u00a0'unsafe-inline'", "https://a.example\u2028x", "https://a.example\u007f",
    // Not a host-source.
    "https://app.example.com:99999", "https://app.example.com:", "https://[::1]:3000", "https://user@app.example.com", "https://app.example.com?x=1",
    "https://app.example.com#x", "//app.example.com", "https://", "https://app.example.com//x", "https://bücher.example", "http://app_example.com", "javascript:alert(1)", "1https:",
    // 'none' is the whole list or nothing; an empty list is not one.
    "'none' 'self'", "'none' https://app.example.com", " , ", "\t",
  ])("refuses %j", (bad) => {
    expect(typeof parseFrameAncestors(bad), bad).toBe("string");
    expect(() => parseConfig({ ...process.env, PORTAL_FRAME_ANCESTORS: bad }), bad).toThrow(ConfigError);
  });

  it("never lets a comma reach the header: it separates sources, as a space does", () => {
    const config = parseConfig({ ...process.env, PORTAL_FRAME_ANCESTORS: "https://a.example,https://b.example/x" });
    expect(frameAncestorsHeader(config.PORTAL_FRAME_ANCESTORS)).toBe("frame-ancestors https://a.example https://b.example/x");
  });

  const self = "https://webhooks.example.com";
  it.each([
    [["http://localhost:*"], ["http://localhost:5173", "http://localhost", "https://localhost:3000"], ["http://127.0.0.1:5173", "http://localhost.evil.example:5173", "ws://localhost:1"]],
    [["https:"], ["https://anything.example", "https://1.2.3.4:8443"], ["http://anything.example", "null"]],
    [["http:"], ["http://anything.example", "https://anything.example"], ["ftp://anything.example"]],
    [["app.example.com"], ["https://app.example.com", "https://APP.example.com:443"], ["http://app.example.com", "https://app.example.com:8443", "https://x.app.example.com"]],
    [["https://app.example.com/embed"], ["https://app.example.com"], ["https://other.example.com"]],
    [["*"], ["https://any.example", "http://1.2.3.4"], ["null", "chrome-extension://abcdef"]],
    [["https://*"], ["https://any.example"], ["https://1.2.3.4", "http://any.example"]],
    [["https://*.acme.example"], ["https://eu.acme.example", "https://a.b.acme.example"], ["https://acme.example", "https://evilacme.example", "https://acme.example.evil.example"]],
    [["*.acme.example:*"], ["https://eu.acme.example:8443"], ["http://eu.acme.example:8443"]],
    [["http://app.example.com:80"], ["http://app.example.com"], ["https://app.example.com", "http://app.example.com:8080"]],
    [["http://app.example.com"], ["http://app.example.com", "https://app.example.com"], ["http://app.example.com:8080"]],
    [["'self'"], [self, "https://webhooks.example.com:443", "wss://webhooks.example.com"], ["http://webhooks.example.com", "https://webhooks.example.com:8443", "https://x.webhooks.example.com"]],
    [["'none'"], [], [self, "https://app.example.com"]],
  ])("with %j allows %j and nothing like %j", (list, allowed, refused) => {
    const sources = parseFrameAncestors(list.join(" "));
    expect(Array.isArray(sources)).toBe(true);
    for (const origin of allowed) expect(isAllowedAncestor(origin, sources as string[], self), origin).toBe(true);
    for (const origin of refused) expect(isAllowedAncestor(origin, sources as string[], self), origin).toBe(false);
  });

  it("reads a source without a scheme, and 'self', against the portal's own scheme", () => {
    const local = "http://localhost:3000";
    expect(isAllowedAncestor("http://app.example.com", ["app.example.com"], local)).toBe(true);
    expect(isAllowedAncestor("https://app.example.com", ["app.example.com"], local)).toBe(true);
    expect(isAllowedAncestor("https://app.example.com", ["app.example.com"], self)).toBe(true);
    expect(isAllowedAncestor("http://app.example.com", ["app.example.com"], self)).toBe(false);
    expect(isAllowedAncestor("https://localhost:3000", ["'self'"], local)).toBe(true);
    expect(isAllowedAncestor("http://localhost:3001", ["'self'"], local)).toBe(false);
  });

  it("allows a framing origin only when the list names it", () => {
    const list = ["'self'", "https://app.example.com", "https://*.acme.example", "http://localhost:5173"];
    const self = "https://webhooks.example.com";
    expect(isAllowedAncestor(self, list, self)).toBe(true);
    expect(isAllowedAncestor("https://app.example.com", list, self)).toBe(true);
    expect(isAllowedAncestor("https://eu.acme.example", list, self)).toBe(true);
    expect(isAllowedAncestor("http://localhost:5173", list, self)).toBe(true);
    for (const origin of ["https://acme.example", "http://app.example.com", "https://app.example.com:8443", "https://evil.example", "http://localhost:5174", "https://app.example.com.evil.example", "null"]) {
      expect(isAllowedAncestor(origin, list, self), origin).toBe(false);
    }
    expect(isAllowedAncestor(self, ["https://app.example.com"], self)).toBe(false);
  });
});

describe("PORTAL_NAME, PORTAL_LOGO_URL, PORTAL_ACCENT", () => {
  it("validates the defaults a link's theme falls back on", () => {
    const config = parseConfig({ ...process.env, PORTAL_NAME: "Acme Cloud", PORTAL_LOGO_URL: "https://cdn.acme.example/logo.svg", PORTAL_ACCENT: "#0F766E" });
    expect(config).toMatchObject({ PORTAL_NAME: "Acme Cloud", PORTAL_LOGO_URL: "https://cdn.acme.example/logo.svg", PORTAL_ACCENT: "#0F766E" });
    expect(parseConfig(process.env).PORTAL_NAME).toBe("Webhooks");
    for (const [key, bad] of [["PORTAL_NAME", "<b>Acme</b>"], ["PORTAL_LOGO_URL", "http://cdn.acme.example/logo.svg"], ["PORTAL_LOGO_URL", "javascript:alert(1)"], ["PORTAL_ACCENT", "red"]] as const) {
      expect(() => parseConfig({ ...process.env, [key]: bad }), `${key}=${bad}`).toThrow(ConfigError);
    }
  });
});

describe("the accent palette", () => {
  it("keeps text in the accent readable (4.5:1) against the page in both modes, and picks the button text that reads best", () => {
    for (const accent of ["#ffeb3b", "#00ff00", "#0f766e", "#1e3a8a", "#000000", "#ffffff", "#ff5500"]) {
      const light = accentPalette(accent, "light");
      const dark = accentPalette(accent, "dark");
      expect(contrast(light.primary, "#ffffff"), `${accent} light`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(dark.primary, "#262a33"), `${accent} dark`).toBeGreaterThanOrEqual(4.5);
      for (const palette of [light, dark]) {
        const other = palette.primaryForeground === "#ffffff" ? "#111418" : "#ffffff";
        expect(contrast(palette.primary, palette.primaryForeground)).toBeGreaterThanOrEqual(contrast(palette.primary, other));
      }
    }
  });

  it("leaves an accent that already reads well as it is", () => {
    expect(accentPalette("#1e3a8a", "light").primary).toBe("#1e3a8a");
    expect(accentPalette("#ffeb3b", "dark")).toEqual({ primary: "#ffeb3b", primaryForeground: "#111418" });
    expect(accentPalette("#ffeb3b", "light").primary).not.toBe("#ffeb3b");
  });
});
