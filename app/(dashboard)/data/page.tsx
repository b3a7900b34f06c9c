import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { DataScreen } from "@/components/dashboard/data/data-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dataLifecycle"))("title") };
}

export default function DataPage() {
  return <DataScreen />;
}
