"use client";

import { Link2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { EndpointStateBadge } from "../../shared/endpoint-state-badge";
import { EndpointFormDialog } from "../../shared/endpoints/endpoint-form-dialog";
import { ErrorMessage } from "../../shared/error-message";
import { useConsumerEndpoints } from "../../shared/queries/consumers";
import { StatsSparkline } from "../../shared/stats-sparkline";
import { Card } from "../../ui/card";
import { EmptyState } from "../../ui/empty-state";
import { TableSkeleton } from "../../ui/skeleton";
import { TBody, THead, Table, Td, Th, Tr } from "../../ui/table";
import { usePortalSession } from "../session-context";
import { usePortalReasons } from "./use-portal-reasons";

/** The customer's endpoints, each with its health and its last 24 hours; adding one opens it. */
export function PortalEndpointsScreen() {
  const t = useTranslations("portalEndpoints");
  const common = useTranslations("common");
  const { consumerId } = usePortalSession();
  const reasons = usePortalReasons();
  const router = useRouter();
  const endpoints = useConsumerEndpoints(consumerId);
  const add = (
    <EndpointFormDialog target={{ kind: "create", consumer: consumerId }} reason={reasons.manage} onCreated={(e) => router.push(`/portal/endpoints/${e.id}`)} />
  );

  return (
    <>
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-xl font-semibold">{t("title")}</h1>
          <p className="mt-1 text-sm text-muted-foreground">{t("description")}</p>
        </div>
        {endpoints.data?.data.length ? add : null}
      </div>
      {reasons.manage ? (
        <p className="mb-4 text-sm text-muted-foreground" data-testid="portal-read-only">
          {reasons.manage}
        </p>
      ) : null}
      <Card>
        {endpoints.isPending ? (
          <TableSkeleton label={common("loading")} />
        ) : endpoints.isError ? (
          <ErrorMessage error={endpoints.error} retry={() => endpoints.refetch()} />
        ) : endpoints.data.data.length === 0 ? (
          <EmptyState icon={Link2} title={t("emptyTitle")} description={t("emptyDescription")} action={add} />
        ) : (
          <Table>
            <THead>
              <Tr>
                <Th>{t("columns.url")}</Th>
                <Th>{t("columns.state")}</Th>
                <Th>{t("columns.last24h")}</Th>
                <Th>{t("columns.eventTypes")}</Th>
              </Tr>
            </THead>
            <TBody>
              {endpoints.data.data.map((e) => (
                <Tr key={e.id} aria-label={e.url}>
                  <Td className="max-w-md">
                    <Link href={`/portal/endpoints/${e.id}`} className="font-mono text-xs break-all text-primary underline-offset-2 hover:underline">
                      {e.url}
                    </Link>
                    {e.description ? <p className="mt-0.5 text-xs break-words text-muted-foreground">{e.description}</p> : null}
                  </Td>
                  <Td>
                    <EndpointStateBadge endpoint={e} />
                  </Td>
                  <Td>
                    <StatsSparkline endpointId={e.id} />
                  </Td>
                  <Td className="text-xs break-all">{e.event_types?.join(", ") ?? t("allEventTypes")}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
    </>
  );
}
