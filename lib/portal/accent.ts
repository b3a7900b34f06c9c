/**
 * A customer's accent colour becomes the portal's primary colour: buttons filled with it and links
 * written in it. A pale accent on a white page (or a dark one on a dark page) would be unreadable,
 * so the colour is darkened (light mode) or lightened (dark mode) just until it reaches WCAG's 4.5:1
 * against the page, and the text on a filled button is white or near-black, whichever reads better.
 */
type Rgb = [number, number, number];

const LIGHT_SURFACE: Rgb = [255, 255, 255];
// The dark theme's lightest surface (cards), the hardest background for light text.
const DARK_SURFACE: Rgb = [38, 42, 51];
const NEAR_BLACK: Rgb = [17, 20, 24];
const MIN_CONTRAST = 4.5;

const toRgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const toHex = (rgb: Rgb): string => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: Rgb | string, b: Rgb | string): number {
  const la = luminance(typeof a === "string" ? toRgb(a) : a);
  const lb = luminance(typeof b === "string" ? toRgb(b) : b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

const mix = (from: Rgb, to: Rgb, amount: number): Rgb => from.map((c, i) => c + (to[i]! - c) * amount) as Rgb;

export type AccentPalette = { primary: string; primaryForeground: string };

export function accentPalette(accent: string, mode: "light" | "dark"): AccentPalette {
  const surface = mode === "light" ? LIGHT_SURFACE : DARK_SURFACE;
  const toward: Rgb = mode === "light" ? [0, 0, 0] : [255, 255, 255];
  const base = toRgb(accent);
  let primary = base;
  for (let step = 1; step <= 20 && contrast(primary, surface) < MIN_CONTRAST; step++) primary = mix(base, toward, step / 20);
  const white: Rgb = [255, 255, 255];
  const foreground = contrast(primary, white) >= contrast(primary, NEAR_BLACK) ? white : NEAR_BLACK;
  return { primary: toHex(primary), primaryForeground: toHex(foreground) };
}
