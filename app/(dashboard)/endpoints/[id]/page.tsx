import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { EndpointDetailScreen } from "@/components/dashboard/endpoints/endpoint-detail-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("endpoints"))("title") };
}

export default async function EndpointPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <EndpointDetailScreen id={decodeURIComponent(id)} />;
}
