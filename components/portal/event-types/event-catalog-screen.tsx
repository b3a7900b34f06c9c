"use client";

import { BookOpen } from "lucide-react";
import { useTranslations } from "next-intl";
import { EventTypeCatalogCard } from "../../shared/event-types/event-type-catalog-card";
import { EmptyState } from "../../ui/empty-state";
import { usePortalSession } from "../session-context";

/** The event catalog as a customer reads it; opened from an endpoint (`?endpoint_id=`), it marks what that endpoint gets. */
export function EventCatalogScreen({ endpointId }: { endpointId: string | null }) {
  const t = useTranslations("eventCatalog");
  const { theme } = usePortalSession();
  return (
    <>
      <div className="mb-6">
        <h1 className="text-xl font-semibold">{t("portalTitle")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-muted-foreground">{t("portalDescription", { product: theme.name })}</p>
      </div>
      <EventTypeCatalogCard
        endpointId={endpointId}
        hrefs={{ endpoint: (id) => `/portal/endpoints/${encodeURIComponent(id)}`, catalog: "/portal/event-types" }}
        empty={<EmptyState icon={BookOpen} title={t("emptyTitle")} description={t("emptyDescription", { product: theme.name })} />}
      />
    </>
  );
}
