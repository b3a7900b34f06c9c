import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { AuditScreen } from "@/components/dashboard/audit/audit-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("audit"))("title") };
}

export default function AuditPage() {
  return <AuditScreen />;
}
