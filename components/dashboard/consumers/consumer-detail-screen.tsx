"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { ErrorMessage } from "../../shared/error-message";
import { RelativeTime } from "../../shared/relative-time";
import { Card } from "../../ui/card";
import { CopyButton } from "../../ui/copy-button";
import { Skeleton } from "../../ui/skeleton";
import { PageHeader } from "../../shared/page-header";
import { EndpointTable } from "../../shared/endpoints/endpoint-table";
import { EndpointFormDialog } from "../../shared/endpoints/endpoint-form-dialog";
import { AlertEmailsCard } from "../../shared/alert-emails-card";
import { useOperator } from "../operator-context";
import { PortalActions } from "./portal-actions";
import { WeightCard } from "./weight-card";
import { useConsumer, useConsumerEndpoints } from "../../shared/queries/consumers";

export function ConsumerDetailScreen({ consumerRef }: { consumerRef: string }) {
  const t = useTranslations("consumers");
  const common = useTranslations("common");
  const charts = useTranslations("charts.sparkline");
  const { role } = useOperator();
  const router = useRouter();
  const consumer = useConsumer(consumerRef);
  const endpoints = useConsumerEndpoints(consumerRef);

  if (consumer.isPending) return <Skeleton className="h-40 w-full" />;
  if (consumer.isError) return <ErrorMessage error={consumer.error} retry={() => consumer.refetch()} />;
  const c = consumer.data;
  const link = "text-sm font-medium text-primary underline-offset-2 hover:underline";

  return (
    <>
      <PageHeader
        title={c.name}
        description={t("detailDescription")}
        actions={<PortalActions consumerId={c.id} />}
      />
      <div className="grid gap-4 lg:grid-cols-3">
        <Card className="p-4 lg:col-span-2">
          <h2 className="mb-3 text-sm font-semibold">{t("facts")}</h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-muted-foreground">{t("columns.uid")}</dt>
            <dd className="flex items-center gap-1">
              <code className="font-mono text-xs">{c.uid}</code>
              <CopyButton value={c.uid} label={t("copyUid")} copiedLabel={common("copied")} failedLabel={common("copyFailed")} />
            </dd>
            <dt className="text-muted-foreground">{t("columns.id")}</dt>
            <dd className="flex items-center gap-1">
              <code className="font-mono text-xs">{c.id}</code>
              <CopyButton value={c.id} label={t("copyId")} copiedLabel={common("copied")} failedLabel={common("copyFailed")} />
            </dd>
            <dt className="text-muted-foreground">{t("columns.created")}</dt>
            <dd>
              <RelativeTime value={c.created_at} />
            </dd>
            <dt className="text-muted-foreground">{t("metadata")}</dt>
            <dd>
              <code className="font-mono text-xs break-all">{c.metadata && Object.keys(c.metadata).length ? JSON.stringify(c.metadata) : "—"}</code>
            </dd>
          </dl>
          <div className="mt-4 flex flex-wrap gap-4">
            <Link className={link} href={`/messages?consumer=${encodeURIComponent(c.id)}`}>
              {t("deliveries")}
            </Link>
            <Link className={link} href={`/recoveries?consumer=${encodeURIComponent(c.id)}`}>
              {t("recoveries")}
            </Link>
          </div>
        </Card>
        <div className="space-y-4">
          <AlertEmailsCard consumer={c} reason={role === "admin" ? null : t("viewerNote")} />
          <WeightCard consumer={c} reason={role === "admin" ? null : t("viewerNote")} />
        </div>
      </div>
      <div className="mt-8 mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{t("endpoints")}</h2>
        <EndpointFormDialog
          target={{ kind: "create", consumer: c.id }}
          reason={role === "admin" ? null : t("viewerNote")}
          withConcurrency
          onCreated={(e) => router.push(`/endpoints/${encodeURIComponent(e.id)}`)}
        />
      </div>
      <EndpointTable
        endpoints={endpoints}
        href={(id) => `/endpoints/${id}`}
        labels={{
          url: t("endpointColumns.url"),
          state: t("endpointColumns.state"),
          last24h: charts("column"),
          eventTypes: t("endpointColumns.eventTypes"),
          allEventTypes: t("allEventTypes"),
        }}
        empty={{ title: t("noEndpointsTitle"), description: t("noEndpointsDescription") }}
        extra={{
          heading: t("endpointColumns.streak"),
          cell: (e) =>
            e.failing_since ? (
              <>
                {t("failuresInARow", { count: e.consecutive_failures })} · <RelativeTime value={e.failing_since} />
              </>
            ) : (
              <span className="text-muted-foreground">—</span>
            ),
        }}
      />
    </>
  );
}
