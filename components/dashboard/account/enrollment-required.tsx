"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { PageHeader } from "../../shared/page-header";
import { TwoFactorCard } from "./two-factor-card";

/**
 * What every dashboard page shows instead of itself while a second factor is required of everyone
 * and this operator has none (the API refuses them everything else meanwhile): enrollment, then
 * the page they asked for.
 */
export function EnrollmentRequired() {
  const t = useTranslations("account");
  const router = useRouter();
  return (
    <div className="mx-auto max-w-xl" data-testid="enrollment-required">
      <PageHeader title={t("requiredTitle")} description={t("requiredDescription")} />
      <TwoFactorCard onEnabled={() => router.refresh()} />
    </div>
  );
}
