import { z } from "zod";
import { themeAccent, themeLogoUrl, themeName } from "../portal-page/theme-fields";
import { PORTAL_CAPABILITIES, type PortalCapability, type PortalPermission, type PortalTheme } from "../db/schema/access";

export const PortalCapabilityName = z.enum(PORTAL_CAPABILITIES);

export const PortalThemeInput = z.strictObject({
  name: themeName.optional(),
  logo_url: themeLogoUrl.optional(),
  accent: themeAccent.optional(),
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

// Any string: a token of the wrong shape or length is unknown, 401 like any other (the body limit bounds it).
export const ExchangePortalTokenInput = z.strictObject({ token: z.string() });

/** POST /consumers/{ref}/portal-links' answer: `{url, expires_at}`, the url carrying the one-time token in its fragment. */
export type PortalLink = { url: string; expires_at: string };

export type PortalSessionAnswer = {
  session_token: string;
  consumer_id: string;
  capabilities: PortalPermission[];
  /** Whether the session may rotate signing secrets: `view_secrets` does for our own links, a Svix-made one only with ManageEndpointSecret or ManageEndpoint. */
  may_rotate_secrets: boolean;
  locale: string | null;
  theme: PortalTheme;
  expires_at: string;
};

/** Capabilities in their canonical order, each once. */
export function normalizeCapabilities(list: readonly PortalCapability[] | undefined): PortalCapability[] {
  return PORTAL_CAPABILITIES.filter((c) => (list ?? PORTAL_CAPABILITIES).includes(c));
}
