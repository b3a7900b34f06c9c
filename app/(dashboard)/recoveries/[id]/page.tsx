import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { RecoveryDetailScreen } from "@/components/dashboard/recoveries/recovery-detail-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("recoveryRuns.detail"))("pageTitle") };
}

// The report's outcome filter lives in the query string (useSearchParams needs the boundary).
export default async function RecoveryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense>
      <RecoveryDetailScreen id={id} />
    </Suspense>
  );
}
