import { EventCatalogScreen } from "@/components/portal/event-types/event-catalog-screen";

// `?endpoint_id=` marks the event types that endpoint gets.
export default async function PortalEventTypesPage({ searchParams }: { searchParams: Promise<{ endpoint_id?: string | string[] }> }) {
  const { endpoint_id: endpointId } = await searchParams;
  return <EventCatalogScreen endpointId={typeof endpointId === "string" && endpointId ? endpointId : null} />;
}
