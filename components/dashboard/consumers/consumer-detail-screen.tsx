"use client";

import { Link2 } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { ErrorMessage } from "../../shared/error-message";
import { EndpointStateBadge } from "../../shared/endpoint-state-badge";
import { RelativeTime } from "../../shared/relative-time";
import { StatsSparkline } from "../../shared/stats-sparkline";
import { Card } from "../../ui/card";
import { CopyButton } from "../../ui/copy-button";
import { EmptyState } from "../../ui/empty-state";
import { Skeleton, TableSkeleton } from "../../ui/skeleton";
import { TBody, THead, Table, Td, Th, Tr } from "../../ui/table";
import { PageHeader } from "../../shared/page-header";
import { AlertEmailsCard } from "../../shared/alert-emails-card";
import { useOperator } from "../operator-context";
import { PortalActions } from "./portal-actions";
import { useConsumer, useConsumerEndpoints } from "../../shared/queries/consumers";

export function ConsumerDetailScreen({ consumerRef }: { consumerRef: string }) {
  const t = useTranslations("consumers");
  const common = useTranslations("common");
  const charts = useTranslations("charts.sparkline");
  const { role } = useOperator();
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
              <code className="font-mono text-xs break-all">{Object.keys(c.metadata).length ? JSON.stringify(c.metadata) : "—"}</code>
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
        <AlertEmailsCard consumer={c} reason={role === "admin" ? null : t("viewerNote")} />
      </div>
      <h2 className="mt-8 mb-3 text-lg font-semibold">{t("endpoints")}</h2>
      <Card>
        {endpoints.isPending ? (
          <TableSkeleton label={common("loading")} />
        ) : endpoints.isError ? (
          <ErrorMessage error={endpoints.error} retry={() => endpoints.refetch()} />
        ) : endpoints.data.data.length === 0 ? (
          <EmptyState icon={Link2} title={t("noEndpointsTitle")} description={t("noEndpointsDescription")} />
        ) : (
          <Table>
            <THead>
              <Tr>
                <Th>{t("endpointColumns.url")}</Th>
                <Th>{t("endpointColumns.state")}</Th>
                <Th>{charts("column")}</Th>
                <Th>{t("endpointColumns.streak")}</Th>
                <Th>{t("endpointColumns.eventTypes")}</Th>
              </Tr>
            </THead>
            <TBody>
              {endpoints.data.data.map((e) => (
                <Tr key={e.id} aria-label={e.url}>
                  <Td className="max-w-md">
                    <Link href={`/endpoints/${e.id}`} className="font-mono text-xs break-all text-primary underline-offset-2 hover:underline">
                      {e.url}
                    </Link>
                    {e.description ? <p className="mt-0.5 text-xs text-muted-foreground">{e.description}</p> : null}
                  </Td>
                  <Td>
                    <EndpointStateBadge endpoint={e} />
                  </Td>
                  <Td>
                    <StatsSparkline endpointId={e.id} />
                  </Td>
                  <Td className="text-xs">
                    {e.failing_since ? (
                      <>
                        {t("failuresInARow", { count: e.consecutive_failures })} · <RelativeTime value={e.failing_since} />
                      </>
                    ) : (
                      <span className="text-muted-foreground">—</span>
                    )}
                  </Td>
                  <Td className="text-xs">{e.event_types?.join(", ") ?? t("allEventTypes")}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
    </>
  );
}
