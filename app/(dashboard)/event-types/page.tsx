import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { EventTypesScreen } from "@/components/dashboard/event-types/event-types-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("eventTypes"))("title") };
}

export default async function EventTypesPage({ searchParams }: { searchParams: Promise<{ endpoint_id?: string | string[] }> }) {
  const { endpoint_id: endpointId } = await searchParams;
  return <EventTypesScreen endpointId={typeof endpointId === "string" && endpointId ? endpointId : null} />;
}
