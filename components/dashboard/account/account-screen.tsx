"use client";

import { useTranslations } from "next-intl";
import { PageHeader } from "../../shared/page-header";
import { SessionsCard } from "./sessions-card";
import { TwoFactorCard } from "./two-factor-card";

/** Your account: the second factor and the sessions of the signed-in operator, whatever their role. */
export function AccountScreen() {
  const t = useTranslations("account");
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <div className="space-y-6">
        <TwoFactorCard />
        <SessionsCard />
      </div>
    </>
  );
}
