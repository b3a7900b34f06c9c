"use client";

import type { ReactNode } from "react";
import { Card } from "../../ui/card";
import { ErrorMessage } from "../error-message";
import { QueryRows } from "../query-rows";
import { useEndpoint } from "../queries/endpoints";
import { useEventTypes, type EventType } from "../queries/event-types";
import { EventTypeCatalog } from "./event-type-catalog";
import { SubscriptionNote } from "./subscription-note";

/**
 * The event catalog below a page's header, for the dashboard and the portal alike: loading, error,
 * `empty` when there are none, else the catalog; opened from an endpoint (`endpointId`), it says
 * what that endpoint gets and marks those event types. `hrefs` are the surface's own pages.
 */
export function EventTypeCatalogCard({
  endpointId,
  hrefs,
  empty,
  extra,
  detail,
}: {
  endpointId: string | null;
  hrefs: { endpoint: (id: string) => string; catalog: string };
  empty: ReactNode;
  extra?: (eventType: EventType) => ReactNode;
  detail?: (eventType: EventType) => ReactNode;
}) {
  const eventTypes = useEventTypes();
  return (
    <>
      {endpointId ? <Marking endpointId={endpointId} hrefs={hrefs} /> : null}
      <Card>
        <QueryRows query={eventTypes} isEmpty={(page) => page.data.length === 0} empty={empty}>
          {(page) =>
            endpointId ? (
              <MarkedCatalog endpointId={endpointId} eventTypes={page.data} extra={extra} detail={detail} />
            ) : (
              <EventTypeCatalog eventTypes={page.data} extra={extra} detail={detail} />
            )
          }
        </QueryRows>
      </Card>
    </>
  );
}

function Marking({ endpointId, hrefs }: { endpointId: string; hrefs: { endpoint: (id: string) => string; catalog: string } }) {
  const endpoint = useEndpoint(endpointId);
  if (endpoint.isError)
    return (
      <div className="mb-4">
        <ErrorMessage error={endpoint.error} retry={() => endpoint.refetch()} />
      </div>
    );
  if (!endpoint.data) return null;
  return <SubscriptionNote endpoint={endpoint.data} endpointHref={hrefs.endpoint(endpointId)} catalogHref={hrefs.catalog} />;
}

function MarkedCatalog({
  endpointId,
  eventTypes,
  extra,
  detail,
}: {
  endpointId: string;
  eventTypes: EventType[];
  extra?: (eventType: EventType) => ReactNode;
  detail?: (eventType: EventType) => ReactNode;
}) {
  const endpoint = useEndpoint(endpointId);
  return <EventTypeCatalog eventTypes={eventTypes} subscribed={endpoint.data ? endpoint.data.event_types : undefined} extra={extra} detail={detail} />;
}
