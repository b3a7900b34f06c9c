"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { PageHeader } from "../../shared/page-header";
import { useConsumerEndpoints } from "../../shared/queries/consumers";
import type { Target } from "../../shared/queries/recoveries";
import { RecoveryForm } from "../../shared/recoveries/recovery-form";
import { RecoveryList } from "../../shared/recoveries/recovery-list";
import { Card } from "../../ui/card";
import { usePortalSession } from "../session-context";

const runHref = (id: string) => `/portal/recover/${id}`;

/**
 * "Resend everything that failed since …" over the session's own consumer or one of its endpoints
 * (chosen by URL; `?endpoint_id=` preselects one, as the endpoint page links), then its past runs.
 */
export function RecoverScreen() {
  const t = useTranslations("portalRecover");
  const router = useRouter();
  const params = useSearchParams();
  const { consumerId, can } = usePortalSession();
  const endpoints = useConsumerEndpoints(consumerId);
  const refused = can("recover") ? undefined : t("cannotRecover");
  const all: Target = { kind: "consumer", id: consumerId };
  const asked = params.get("endpoint_id");
  const listed = endpoints.data?.data ?? [];
  const choices = [{ target: all, label: t("allEndpoints") }, ...listed.map((e) => ({ target: { kind: "endpoint" as const, id: e.id }, label: e.url }))];
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      {/* Mounted once the endpoints are known, so a preselected endpoint is among the choices. */}
      {asked && endpoints.isPending ? null : (
        <RecoveryForm
          initialTarget={asked && listed.some((e) => e.id === asked) ? { kind: "endpoint", id: asked } : all}
          choices={choices}
          tuning={false}
          cannotPreview={refused}
          cannotStart={refused}
          onStarted={(recovery) => router.push(runHref(recovery.id))}
        />
      )}
      <h2 className="mt-8 mb-2 text-sm font-semibold">{t("runs")}</h2>
      <Card>
        <RecoveryList runHref={runHref} showConsumer={false} empty={{ title: t("emptyTitle"), description: t("emptyDescription") }} />
      </Card>
    </>
  );
}
