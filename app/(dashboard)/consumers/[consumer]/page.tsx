import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ConsumerDetailScreen } from "@/components/dashboard/consumers/consumer-detail-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("consumers"))("detailTitle") };
}

export default async function ConsumerPage({ params }: { params: Promise<{ consumer: string }> }) {
  const { consumer } = await params;
  return <ConsumerDetailScreen consumerRef={decodeURIComponent(consumer)} />;
}
