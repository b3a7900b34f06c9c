"use client";

import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { PageHeader } from "../../shared/page-header";
import { RecoveryForm } from "../../shared/recoveries/recovery-form";
import { useOperator } from "../operator-context";

export function CreateRecoveryScreen() {
  const t = useTranslations("recoveryRuns.create");
  const router = useRouter();
  const params = useSearchParams();
  const { role } = useOperator();
  const endpoint = params.get("endpoint");
  return (
    <>
      <Link href="/recoveries" className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft aria-hidden className="h-4 w-4" />
        {t("back")}
      </Link>
      <PageHeader title={t("title")} description={t("description")} />
      <RecoveryForm
        initialTarget={endpoint ? { kind: "endpoint", id: endpoint } : { kind: "consumer", id: params.get("consumer") ?? "" }}
        tuning
        cannotStart={role === "admin" ? undefined : t("viewerCannotStart")}
        onStarted={(recovery) => router.push(`/recoveries/${recovery.id}`)}
      />
    </>
  );
}
