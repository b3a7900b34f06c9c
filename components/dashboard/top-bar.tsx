"use client";

import { LogOut, UserRound } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { LanguageMenu, ThemeMenu } from "../shared/preference-menus";
import type { Theme } from "../shared/preferences";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";

export function TopBar({ email, role, theme, signOut }: { email: string; role: "admin" | "viewer"; theme: Theme; signOut: () => Promise<void> }) {
  const t = useTranslations("shell");
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center justify-end gap-2 border-b border-border bg-background/85 px-4 backdrop-blur md:px-8">
      <div className="mr-auto flex min-w-0 items-center gap-2 text-sm text-muted-foreground">
        <UserRound aria-hidden className="h-4 w-4 shrink-0" />
        {/* Your account: your sessions and second factor. */}
        <Link href="/account" className="truncate hover:text-foreground hover:underline" data-testid="signed-in-as" title={t("account")}>
          {email}
        </Link>
        <Badge tone={role === "admin" ? "primary" : "neutral"}>{t(`role.${role}`)}</Badge>
      </div>
      <LanguageMenu />
      <ThemeMenu initial={theme} />
      <form action={signOut}>
        <Button type="submit" variant="ghost" size="sm">
          <LogOut aria-hidden className="h-4 w-4" />
          {t("signOut")}
        </Button>
      </form>
    </header>
  );
}
