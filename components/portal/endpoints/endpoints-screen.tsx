"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { EndpointFormDialog } from "../../shared/endpoints/endpoint-form-dialog";
import { EndpointTable } from "../../shared/endpoints/endpoint-table";
import { useConsumerEndpoints } from "../../shared/queries/consumers";
import { usePortalSession } from "../session-context";
import { usePortalReasons } from "./use-portal-reasons";
import { ReadOnlyNote } from "./read-only-note";

/** The customer's endpoints, each with its health and its last 24 hours; adding one opens it. */
export function PortalEndpointsScreen() {
  const t = useTranslations("portalEndpoints");
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
      <ReadOnlyNote reason={reasons.manage} />
      <EndpointTable
        endpoints={endpoints}
        href={(id) => `/portal/endpoints/${id}`}
        labels={{ url: t("columns.url"), state: t("columns.state"), last24h: t("columns.last24h"), eventTypes: t("columns.eventTypes"), allEventTypes: t("allEventTypes") }}
        empty={{ title: t("emptyTitle"), description: t("emptyDescription"), action: add }}
      />
    </>
  );
}
