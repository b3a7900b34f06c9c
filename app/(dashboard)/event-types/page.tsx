import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { EventTypesScreen } from "@/components/dashboard/event-types/event-types-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("eventTypes"))("title") };
}

export default function EventTypesPage() {
  return <EventTypesScreen />;
}
