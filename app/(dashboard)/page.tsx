import { BookOpen, KeyRound, UserCog } from "lucide-react";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { NotYetAvailable } from "@/components/dashboard/not-yet-available";
import { Card } from "@/components/ui/card";

const READY = [
  { key: "apiKeys", href: "/api-keys", icon: KeyRound },
  { key: "eventTypes", href: "/event-types", icon: BookOpen },
  { key: "operators", href: "/operators", icon: UserCog },
] as const;

export default async function OverviewPage() {
  const t = await getTranslations();
  return (
    <NotYetAvailable section="overview">
      <h2 className="mt-8 mb-3 text-sm font-medium text-muted-foreground">{t("overview.readyNow")}</h2>
      <div className="grid gap-3 sm:grid-cols-3">
        {READY.map((item) => (
          <Link key={item.key} href={item.href} className="rounded-lg focus-visible:outline-2 focus-visible:outline-ring">
            <Card className="flex h-full items-start gap-3 p-4 transition hover:border-primary/50">
              <item.icon aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-primary" />
              <span>
                <span className="block font-medium">{t(`nav.${item.key}`)}</span>
                <span className="block text-sm text-muted-foreground">{t(`overview.ready.${item.key}`)}</span>
              </span>
            </Card>
          </Link>
        ))}
      </div>
    </NotYetAvailable>
  );
}
