"use client";

import { createContext, useContext } from "react";
import type { Locale } from "@/lib/i18n/locale";
import type { PortalCapability, PortalPermission } from "@/lib/portal/capabilities";

export type { PortalCapability };

/** The look the portal wears: the link's theme over the PORTAL_* defaults. */
export type PortalTheme = { name: string; logoUrl: string | null; accent: string | null; mode: "light" | "dark" | "auto" };

export type PortalSession = {
  consumerId: string;
  capabilities: readonly PortalPermission[];
  /** Whether the link granted a capability; the server refuses anyway when it did not. */
  can: (capability: PortalCapability) => boolean;
  /** Whether the link lets this session rotate signing secrets (not only read them). */
  mayRotateSecrets: boolean;
  theme: PortalTheme;
  /** The language shown: the viewer's switch, else the link's, else the browser's. */
  locale: Locale;
  setLocale: (locale: Locale) => void;
  expiresAt: string;
  signOut: () => Promise<void>;
};

export const PortalSessionContext = createContext<PortalSession | null>(null);

/** The signed-in customer's session; only inside /portal's layout, which renders nothing else without one. */
export function usePortalSession(): PortalSession {
  const session = useContext(PortalSessionContext);
  if (!session) throw new Error("usePortalSession() outside the portal's layout");
  return session;
}
