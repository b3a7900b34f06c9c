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
import { EditEventTypeDialog } from "./edit-event-type-dialog";

const created = (eventType: EventType) => (
  <span className="hidden text-xs text-muted-foreground md:inline">
    <RelativeTime value={eventType.created_at} />
  </span>
);

/** How its schema is enforced, and (for an admin) its editor: under the description of an opened row. */
function Settings({ eventType, canWrite }: { eventType: EventType; canWrite: boolean }) {
  const t = useTranslations("eventTypes");
  return (
    <div className="flex items-start justify-between gap-3 rounded-md border border-border bg-surface px-3 py-2 text-sm" data-testid="event-type-settings">
      <div className="min-w-0">
        <p>
          <span className="text-muted-foreground">{t("enforcement.label")}</span>{" "}
          <span className="font-medium" data-testid="enforcement">
            {t(`enforcement.levels.${eventType.enforcement}`)}
          </span>
        </p>
        <p className="mt-0.5 text-xs text-muted-foreground">{t(`enforcement.describe.${eventType.enforcement}`)}</p>
      </div>
      {canWrite ? <EditEventTypeDialog eventType={eventType} /> : null}
    </div>
  );
}

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
        detail={(eventType) => <Settings eventType={eventType} canWrite={canWrite} />}
      />
    </>
  );
}
