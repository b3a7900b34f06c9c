"use client";

import { Webhook } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { cn } from "../ui/cn";
import { NAV_GROUPS } from "./nav";

export function Sidebar() {
  const t = useTranslations("nav");
  const pathname = usePathname();
  const active = (href: string) => (href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`));
  return (
    <aside className="border-b border-border bg-surface md:fixed md:inset-y-0 md:left-0 md:w-60 md:border-r md:border-b-0">
      <div className="flex h-14 items-center gap-2 px-5 font-semibold">
        <Webhook aria-hidden className="h-5 w-5 text-primary" />
        <span>Webhook Admin</span>
      </div>
      <nav aria-label={t("label")} className="flex gap-4 overflow-x-auto px-3 pb-3 md:block md:space-y-6 md:pt-2">
        {NAV_GROUPS.map((group) => (
          <div key={group.key} className="flex gap-1 md:block md:space-y-0.5">
            <p className="hidden px-2 pb-1 text-xs font-medium tracking-wide text-muted-foreground uppercase md:block">{t(group.key)}</p>
            {group.items.map((item) => (
              <Link
                key={item.key}
                href={item.href}
                aria-current={active(item.href) ? "page" : undefined}
                className={cn(
                  "flex items-center gap-2.5 rounded-md px-2 py-1.5 text-sm whitespace-nowrap transition",
                  "focus-visible:outline-2 focus-visible:outline-ring",
                  active(item.href) ? "bg-primary/10 font-medium text-primary" : "text-foreground/80 hover:bg-muted",
                )}
              >
                <item.icon aria-hidden className="h-4 w-4" />
                {t(item.key)}
              </Link>
            ))}
          </div>
        ))}
      </nav>
    </aside>
  );
}
