"use client";

import { BookOpen } from "lucide-react";
import { useTranslations } from "next-intl";
import { ErrorMessage } from "../../shared/error-message";
import { EventTypeCatalog } from "../../shared/event-types/event-type-catalog";
import { SubscriptionNote } from "../../shared/event-types/subscription-note";
import { RelativeTime } from "../../shared/relative-time";
import { Card } from "../../ui/card";
import { EmptyState } from "../../ui/empty-state";
import { TableSkeleton } from "../../ui/skeleton";
import { useOperator } from "../operator-context";
import { PageHeader } from "../../shared/page-header";
import { CreateEventTypeDialog } from "./create-event-type-dialog";
import { useEventTypes, type EventType } from "../../shared/queries/event-types";
import { useEndpoint } from "../../shared/queries/endpoints";

/** The catalog; opened from an endpoint (`?endpoint_id=`), it marks the event types that endpoint gets. */
export function EventTypesScreen({ endpointId }: { endpointId: string | null }) {
  const t = useTranslations("eventTypes");
  const common = useTranslations("common");
  const { role } = useOperator();
  const eventTypes = useEventTypes();
  const canWrite = role === "admin";
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} actions={canWrite ? <CreateEventTypeDialog /> : null} />
      {endpointId ? <Marking endpointId={endpointId} /> : null}
      <Card>
        {eventTypes.isPending ? (
          <TableSkeleton label={common("loading")} />
        ) : eventTypes.isError ? (
          <ErrorMessage error={eventTypes.error} retry={() => eventTypes.refetch()} />
        ) : eventTypes.data.data.length === 0 ? (
          <EmptyState icon={BookOpen} title={t("emptyTitle")} description={t("emptyDescription")} action={canWrite ? <CreateEventTypeDialog /> : null} />
        ) : (
          <Catalog endpointId={endpointId} eventTypes={eventTypes.data.data} />
        )}
      </Card>
    </>
  );
}

function Marking({ endpointId }: { endpointId: string }) {
  const endpoint = useEndpoint(endpointId);
  if (endpoint.isError)
    return (
      <div className="mb-4">
        <ErrorMessage error={endpoint.error} retry={() => endpoint.refetch()} />
      </div>
    );
  if (!endpoint.data) return null;
  return <SubscriptionNote endpoint={endpoint.data} endpointHref={`/endpoints/${encodeURIComponent(endpointId)}`} catalogHref="/event-types" />;
}

const created = (eventType: EventType) => (
  <span className="hidden text-xs text-muted-foreground md:inline">
    <RelativeTime value={eventType.created_at} />
  </span>
);

function Catalog({ endpointId, eventTypes }: { endpointId: string | null; eventTypes: EventType[] }) {
  return endpointId ? <MarkedCatalog endpointId={endpointId} eventTypes={eventTypes} /> : <EventTypeCatalog eventTypes={eventTypes} extra={created} />;
}

function MarkedCatalog({ endpointId, eventTypes }: { endpointId: string; eventTypes: EventType[] }) {
  const endpoint = useEndpoint(endpointId);
  return <EventTypeCatalog eventTypes={eventTypes} subscribed={endpoint.data ? endpoint.data.event_types : undefined} extra={created} />;
}
