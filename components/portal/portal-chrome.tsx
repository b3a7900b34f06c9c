"use client";

import { LogOut } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { LanguageMenu } from "../shared/preference-menus";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";
import { usePortalSession } from "./session-context";

/** The portal's screens; Deliveries and Recover are built on this shell by their own screens. */
const NAV = [
  { href: "/portal", key: "endpoints", active: (p: string) => p === "/portal" || (p.startsWith("/portal/endpoints") && !p.endsWith("/receiving")) },
  { href: "/portal/deliveries", key: "deliveries", active: (p: string) => p.startsWith("/portal/deliveries") },
  { href: "/portal/recover", key: "recover", active: (p: string) => p.startsWith("/portal/recover") },
  { href: "/portal/alert-emails", key: "alertEmails", active: (p: string) => p.startsWith("/portal/alert-emails") },
  { href: "/portal/event-types", key: "eventTypes", active: (p: string) => p.startsWith("/portal/event-types") },
  { href: "/portal/receiving", key: "receiving", active: (p: string) => p.startsWith("/portal/receiving") || /^\/portal\/endpoints\/[^/]+\/receiving/.test(p) },
] as const;

export function PortalChrome({ children }: { children: React.ReactNode }) {
  const t = useTranslations("portal");
  const { theme, setLocale, signOut } = usePortalSession();
  const pathname = usePathname();
  return (
    <>
      <a href="#portal-main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-surface focus:px-3 focus:py-2">
        {t("skipToContent")}
      </a>
      <header className="border-b border-border bg-surface">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <div className="flex min-w-0 items-center gap-2">
            {theme.logoUrl ? (
              // The logo is the SaaS's own https URL (validated server-side); next/image would proxy it through this server.
              // eslint-disable-next-line @next/next/no-img-element
              <img src={theme.logoUrl} alt="" className="h-7 w-auto max-w-32 object-contain" referrerPolicy="no-referrer" />
            ) : null}
            <span className="truncate font-semibold" data-testid="portal-product">
              {theme.name}
            </span>
          </div>
          {/* Six screens: beside the name from lg up; narrower (an 800 px iframe) they take a row of their own, all in view. */}
          <nav aria-label={t("navLabel")} className="order-last -mb-3 flex w-full gap-1 overflow-x-auto lg:order-none lg:mb-0 lg:w-auto lg:flex-1">
            {NAV.map((item) => {
              const active = item.active(pathname);
              return (
                <Link
                  key={item.key}
                  href={item.href}
                  aria-current={active ? "page" : undefined}
                  className={cn(
                    "border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap lg:rounded-md lg:border-b-0",
                    active ? "border-primary text-foreground lg:bg-muted" : "border-transparent text-muted-foreground hover:text-foreground",
                  )}
                >
                  {t(`nav.${item.key}`)}
                </Link>
              );
            })}
          </nav>
          <div className="ml-auto flex items-center gap-1">
            <LanguageMenu onSelect={setLocale} />
            <Button variant="ghost" size="sm" onClick={() => void signOut()}>
              <LogOut aria-hidden className="h-4 w-4" />
              {t("signOut")}
            </Button>
          </div>
        </div>
      </header>
      <main id="portal-main" className="mx-auto max-w-5xl px-4 py-6">
        {children}
      </main>
    </>
  );
}
