"use client";

import { Languages, Monitor, Moon, Sun } from "lucide-react";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { LOCALE_COOKIE, TIME_ZONE_COOKIE, type Locale } from "@/lib/i18n/locale";
import { Button } from "../ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "../ui/dropdown-menu";
import { THEME_COOKIE, applyTheme, setPreferenceCookie, type Theme } from "./preferences";

/** The dashboard keeps the choice in a cookie and re-renders on the server; the portal passes its own `onSelect`. */
export function LanguageMenu({ onSelect }: { onSelect?: (locale: Locale) => void }) {
  const t = useTranslations("preferences");
  const locale = useLocale();
  const router = useRouter();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={t("language")}>
          <Languages aria-hidden className="h-4 w-4" />
          <span>{locale === "ja" ? "日本語" : "English"}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuRadioGroup
          value={locale}
          onValueChange={(value) => {
            if (onSelect) return onSelect(value as Locale);
            setPreferenceCookie(LOCALE_COOKIE, value);
            router.refresh();
          }}
        >
          <DropdownMenuRadioItem value="en" lang="en">
            English
          </DropdownMenuRadioItem>
          <DropdownMenuRadioItem value="ja" lang="ja">
            日本語
          </DropdownMenuRadioItem>
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export function ThemeMenu({ initial }: { initial: Theme }) {
  const t = useTranslations("preferences");
  const [theme, setTheme] = useState<Theme>(initial);
  const Icon = theme === "dark" ? Moon : theme === "light" ? Sun : Monitor;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={t("theme")}>
          <Icon aria-hidden className="h-4 w-4" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuRadioGroup
          value={theme}
          onValueChange={(value) => {
            const next = value as Theme;
            setTheme(next);
            setPreferenceCookie(THEME_COOKIE, next);
            applyTheme(next);
          }}
        >
          <DropdownMenuRadioItem value="light">{t("light")}</DropdownMenuRadioItem>
          <DropdownMenuRadioItem value="dark">{t("dark")}</DropdownMenuRadioItem>
          <DropdownMenuRadioItem value="system">{t("system")}</DropdownMenuRadioItem>
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** Tells the server the browser's time zone, once, so dates render in it from then on. */
export function TimeZoneSync({ current }: { current: string }) {
  const router = useRouter();
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const sent = document.cookie.split("; ").find((c) => c.startsWith(`${TIME_ZONE_COOKIE}=`))?.slice(TIME_ZONE_COOKIE.length + 1);
    // Once sent, never again: a zone the server does not know would otherwise refresh forever.
    if (zone && zone !== current && decodeURIComponent(sent ?? "") !== zone) {
      setPreferenceCookie(TIME_ZONE_COOKIE, zone);
      router.refresh();
    }
  }, [current, router]);
  return null;
}
