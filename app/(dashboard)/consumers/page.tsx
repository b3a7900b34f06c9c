import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ConsumersScreen } from "@/components/dashboard/consumers/consumers-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("consumers"))("title") };
}

export default function ConsumersPage() {
  return <ConsumersScreen />;
}
