import { Construction } from "lucide-react";
import { getTranslations } from "next-intl/server";
import { Card } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import type { NavKey } from "./nav";
import { PageHeader } from "./page-header";

/** An honest placeholder for a section whose screen is not built yet: no sample data, a way forward. */
export async function NotYetAvailable({ section }: { section: Exclude<NavKey, "apiKeys" | "eventTypes" | "operators"> }) {
  const t = await getTranslations();
  return (
    <>
      <PageHeader title={t(`nav.${section}`)} />
      <Card>
        <EmptyState
          icon={Construction}
          title={t("notYetAvailable.title")}
          description={`${t(`notYetAvailable.sections.${section}`)} ${t("notYetAvailable.meanwhile")}`}
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
    </>
  );
}
