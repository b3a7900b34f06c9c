import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ApiKeysScreen } from "@/components/dashboard/api-keys/api-keys-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("apiKeys"))("title") };
}

export default function ApiKeysPage() {
  return <ApiKeysScreen />;
}
