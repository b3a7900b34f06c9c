"use client";

import { BookOpen } from "lucide-react";
import { useTranslations } from "next-intl";
import { ErrorMessage } from "../../shared/error-message";
import { EventTypeCatalog } from "../../shared/event-types/event-type-catalog";
import { SubscriptionNote } from "../../shared/event-types/subscription-note";
import { useEndpoint } from "../../shared/queries/endpoints";
import { useEventTypes, type EventType } from "../../shared/queries/event-types";
import { Card } from "../../ui/card";
import { EmptyState } from "../../ui/empty-state";
import { TableSkeleton } from "../../ui/skeleton";
import { usePortalSession } from "../session-context";

/** The event catalog as a customer reads it; opened from an endpoint (`?endpoint_id=`), it marks what that endpoint gets. */
export function EventCatalogScreen({ endpointId }: { endpointId: string | null }) {
  const t = useTranslations("eventCatalog");
  const common = useTranslations("common");
  const { theme } = usePortalSession();
  const eventTypes = useEventTypes();
  return (
    <>
      <div className="mb-6">
        <h1 className="text-xl font-semibold">{t("portalTitle")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-muted-foreground">{t("portalDescription", { product: theme.name })}</p>
      </div>
      {endpointId ? <Marking endpointId={endpointId} /> : null}
      <Card>
        {eventTypes.isPending ? (
          <TableSkeleton label={common("loading")} />
        ) : eventTypes.isError ? (
          <ErrorMessage error={eventTypes.error} retry={() => eventTypes.refetch()} />
        ) : eventTypes.data.data.length === 0 ? (
          <EmptyState icon={BookOpen} title={t("emptyTitle")} description={t("emptyDescription", { product: theme.name })} />
        ) : endpointId ? (
          <MarkedCatalog endpointId={endpointId} eventTypes={eventTypes.data.data} />
        ) : (
          <EventTypeCatalog eventTypes={eventTypes.data.data} />
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
  return <SubscriptionNote endpoint={endpoint.data} endpointHref={`/portal/endpoints/${encodeURIComponent(endpointId)}`} catalogHref="/portal/event-types" />;
}

function MarkedCatalog({ endpointId, eventTypes }: { endpointId: string; eventTypes: EventType[] }) {
  const endpoint = useEndpoint(endpointId);
  return <EventTypeCatalog eventTypes={eventTypes} subscribed={endpoint.data ? endpoint.data.event_types : undefined} />;
}
