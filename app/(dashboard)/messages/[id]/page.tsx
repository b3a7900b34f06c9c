import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { MessageDetailScreen } from "@/components/dashboard/messages/message-detail-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("messageLog.detail"))("pageTitle") };
}

export default async function MessagePage({ params }: { params: Promise<{ id: string }> }) {
  return <MessageDetailScreen id={(await params).id} />;
}
