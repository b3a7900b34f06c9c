import { z } from "zod";
import { PORTAL_CAPABILITIES, type PortalCapability, type PortalTheme } from "../db/schema/access";

export const PortalCapabilityName = z.enum(PORTAL_CAPABILITIES);

/** The link's theme is shown inside the customer's page: only plain text, an https logo and a hex colour get through. */
export const PortalThemeInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(80)
    .regex(/^[^<>\p{Cc}]*$/u, "must be plain text (no < > or control characters)")
    .optional(),
  logo_url: z
    .url({ protocol: /^https$/, hostname: z.regexes.domain })
    .max(2048)
    .optional(),
  accent: z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a #rrggbb colour").optional(),
  mode: z.enum(["light", "dark", "auto"]).optional(),
});

export const CreatePortalLinkInput = z.strictObject({
  ttl_seconds: z.number().int().min(60).max(86_400).optional(),
  session_ttl_seconds: z.number().int().min(300).max(604_800).optional(),
  locale: z.enum(["en", "ja"]).optional(),
  capabilities: z.array(PortalCapabilityName).max(PORTAL_CAPABILITIES.length).optional(),
  theme: PortalThemeInput.optional(),
});
export type CreatePortalLinkInput = z.infer<typeof CreatePortalLinkInput>;

export const ExchangePortalTokenInput = z.strictObject({ token: z.string().min(1).max(200) });

export type PortalSessionAnswer = {
  session_token: string;
  consumer_id: string;
  capabilities: PortalCapability[];
  locale: string | null;
  theme: PortalTheme;
  expires_at: string;
};

/** Capabilities in their canonical order, each once. */
export function normalizeCapabilities(list: readonly PortalCapability[] | undefined): PortalCapability[] {
  return PORTAL_CAPABILITIES.filter((c) => (list ?? PORTAL_CAPABILITIES).includes(c));
}
