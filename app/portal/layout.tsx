import type { Metadata } from "next";
import type { AbstractIntlMessages } from "next-intl";
import { getLocale, getTimeZone } from "next-intl/server";
import { PortalShell } from "@/components/portal/portal-shell";
import { getConfig } from "@/lib/config";
import type { Locale } from "@/lib/i18n/locale";
import en from "@/messages/en.json";
import ja from "@/messages/ja.json";

export function generateMetadata(): Metadata {
  return { title: { absolute: getConfig().PORTAL_NAME }, robots: { index: false, follow: false } };
}

/** A customer reads errors about their link, not the dashboard's roles: the portal words them itself. */
function portalMessages(messages: typeof en): AbstractIntlMessages {
  return { ...messages, errors: { ...messages.errors, ...messages.portal.errors } };
}

const MESSAGES: Record<Locale, AbstractIntlMessages> = { en: portalMessages(en), ja: portalMessages(ja) };

export default async function PortalLayout({ children }: { children: React.ReactNode }) {
  const config = getConfig();
  return (
    <PortalShell
      defaults={{ name: config.PORTAL_NAME, logoUrl: config.PORTAL_LOGO_URL ?? null, accent: config.PORTAL_ACCENT ?? null }}
      frameAncestors={config.PORTAL_FRAME_ANCESTORS}
      messages={MESSAGES}
      initialLocale={(await getLocale()) as Locale}
      initialTimeZone={await getTimeZone()}
    >
      {children}
    </PortalShell>
  );
}
