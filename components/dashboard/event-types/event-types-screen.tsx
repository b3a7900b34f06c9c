"use client";

import { BookOpen } from "lucide-react";
import { useTranslations } from "next-intl";
import { EventTypeCatalogCard } from "../../shared/event-types/event-type-catalog-card";
import { PageHeader } from "../../shared/page-header";
import type { EventType } from "../../shared/queries/event-types";
import { RelativeTime } from "../../shared/relative-time";
import { EmptyState } from "../../ui/empty-state";
import { useOperator } from "../operator-context";
import { CreateEventTypeDialog } from "./create-event-type-dialog";

const created = (eventType: EventType) => (
  <span className="hidden text-xs text-muted-foreground md:inline">
    <RelativeTime value={eventType.created_at} />
  </span>
);

/** The catalog; opened from an endpoint (`?endpoint_id=`), it marks the event types that endpoint gets. */
export function EventTypesScreen({ endpointId }: { endpointId: string | null }) {
  const t = useTranslations("eventTypes");
  const { role } = useOperator();
  const canWrite = role === "admin";
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} actions={canWrite ? <CreateEventTypeDialog /> : null} />
      <EventTypeCatalogCard
        endpointId={endpointId}
        hrefs={{ endpoint: (id) => `/endpoints/${encodeURIComponent(id)}`, catalog: "/event-types" }}
        empty={<EmptyState icon={BookOpen} title={t("emptyTitle")} description={t("emptyDescription")} action={canWrite ? <CreateEventTypeDialog /> : null} />}
        extra={created}
      />
    </>
  );
}
