import { z } from "zod";

/**
 * A portal theme's fields, as a link may give them and as PORTAL_NAME / PORTAL_LOGO_URL /
 * PORTAL_ACCENT give the defaults. They end up inside a customer's page, so only plain text, an
 * https logo and a hex colour get through.
 */
export const themeName = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .regex(/^[^<>\p{Cc}]*$/u, "must be plain text (no < > or control characters)");

export const themeLogoUrl = z.url({ protocol: /^https$/, hostname: z.regexes.domain }).max(2048);

export const themeAccent = z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a #rrggbb colour");
