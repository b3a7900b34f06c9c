import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { RecoveriesScreen } from "@/components/dashboard/recoveries/recoveries-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("recoveryRuns"))("title") };
}

export default function RecoveriesPage() {
  return <RecoveriesScreen />;
}
