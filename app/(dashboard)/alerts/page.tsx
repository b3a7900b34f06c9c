import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { AlertsScreen } from "@/components/dashboard/alerts/alerts-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("alerts"))("title") };
}

export default function AlertsPage() {
  return <AlertsScreen />;
}
