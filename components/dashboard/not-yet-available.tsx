import { Construction } from "lucide-react";
import { getTranslations } from "next-intl/server";
import { Card } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import type { NavKey } from "./nav";
import { PageHeader } from "./page-header";

/** An honest placeholder for a section whose screen is not built yet: no sample data, a way forward. */
export async function NotYetAvailable({
  section,
  children,
}: {
  section: Exclude<NavKey, "apiKeys" | "eventTypes" | "operators" | "messages" | "recoveries">;
  children?: React.ReactNode;
}) {
  const t = await getTranslations();
  return (
    <>
      <PageHeader title={t(`nav.${section}`)} />
      <Card>
        <EmptyState
          icon={Construction}
          title={t("notYetAvailable.title")}
          description={
            <>
              <p>{t(`notYetAvailable.sections.${section}`)}</p>
              <p>{t("notYetAvailable.meanwhile")}</p>
            </>
          }
          action={
            <a
              href="/api/v1/openapi.json"
              className="text-sm font-medium text-primary underline-offset-2 hover:underline"
            >
              {t("notYetAvailable.apiReference")}
            </a>
          }
        />
      </Card>
      {children}
    </>
  );
}
