import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../lib/config";
import { accentPalette, contrast } from "../lib/portal/accent";
import { frameAncestorsHeader, isAllowedAncestor, parseFrameAncestors } from "../lib/portal/frame-ancestors";

/** The portal's runtime config: who may frame it (and hear its messages), and the accent it wears. */
describe("PORTAL_FRAME_ANCESTORS", () => {
  it("defaults to 'self' and takes CSP sources, space or comma separated", () => {
    expect(parseConfig(process.env).PORTAL_FRAME_ANCESTORS).toEqual(["'self'"]);
    const config = parseConfig({ ...process.env, PORTAL_FRAME_ANCESTORS: "'self', https://App.example.com  https://*.acme.example http://localhost:5173" });
    expect(frameAncestorsHeader(config.PORTAL_FRAME_ANCESTORS)).toBe("frame-ancestors 'self' https://app.example.com https://*.acme.example http://localhost:5173");
  });

  it("refuses what CSP or the origin check would read differently: a bare *, a path, 'none' with others", () => {
    for (const bad of ["*", "https://app.example.com/embed", "'none' https://app.example.com", "app.example.com", "javascript:alert(1)", "'unsafe-inline'"]) {
      expect(typeof parseFrameAncestors(bad), bad).toBe("string");
      expect(() => parseConfig({ ...process.env, PORTAL_FRAME_ANCESTORS: bad }), bad).toThrow(ConfigError);
    }
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
