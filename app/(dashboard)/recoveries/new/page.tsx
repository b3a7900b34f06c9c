import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { CreateRecoveryScreen } from "@/components/dashboard/recoveries/create-recovery-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("recoveryRuns.create"))("title") };
}

// ?consumer= or ?endpoint= preselects the target (links from a consumer or an endpoint).
export default function NewRecoveryPage() {
  return (
    <Suspense>
      <CreateRecoveryScreen />
    </Suspense>
  );
}
