"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { PageHeader } from "../../shared/page-header";
import { RecoveryForm } from "../../shared/recoveries/recovery-form";
import { RecoveryList } from "../../shared/recoveries/recovery-list";
import { Card } from "../../ui/card";
import { usePortalSession } from "../session-context";

const runHref = (id: string) => `/portal/recover/${id}`;

/** "Resend everything that failed since …" over the session's own consumer, then its past runs. */
export function RecoverScreen() {
  const t = useTranslations("portalRecover");
  const router = useRouter();
  const { consumerId, can } = usePortalSession();
  const refused = can("recover") ? undefined : t("cannotRecover");
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <RecoveryForm target={{ kind: "consumer", id: consumerId }} tuning={false} cannotPreview={refused} cannotStart={refused} onStarted={(recovery) => router.push(runHref(recovery.id))} />
      <h2 className="mt-8 mb-2 text-sm font-semibold">{t("runs")}</h2>
      <Card>
        <RecoveryList runHref={runHref} showConsumer={false} empty={{ title: t("emptyTitle"), description: t("emptyDescription") }} />
      </Card>
    </>
  );
}
