"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { EndpointHealthBanner } from "../../shared/endpoint-health-banner";
import { EndpointStateBadge } from "../../shared/endpoint-state-badge";
import { EndpointStatsChart } from "../../shared/endpoint-stats-chart";
import { EndpointFormDialog } from "../../shared/endpoints/endpoint-form-dialog";
import { EnableToggle } from "../../shared/endpoints/enable-toggle";
import { SecretCard } from "../../shared/endpoints/secret-card";
import { TestSendCard } from "../../shared/endpoints/test-send-card";
import { useEndpoint } from "../../shared/queries/endpoints";
import { RelativeTime } from "../../shared/relative-time";
import { endpointHealth } from "../../shared/resources";
import { Card } from "../../ui/card";
import { EndpointGate } from "./endpoint-gate";
import { usePortalSession } from "../session-context";
import { DeleteEndpointButton } from "./delete-endpoint-button";
import { usePortalReasons } from "./use-portal-reasons";

const deliveryHref = (messageId: string) => `/portal/deliveries/${encodeURIComponent(messageId)}`;

export function PortalEndpointDetailScreen({ id }: { id: string }) {
  const t = useTranslations("portalEndpoints");
  const receiving = useTranslations("receiving");
  const { theme } = usePortalSession();
  const reasons = usePortalReasons();
  const endpoint = useEndpoint(id);
  const link = "text-sm font-medium text-primary underline-offset-2 hover:underline";
  return (
    <EndpointGate query={endpoint} back={{ href: "/portal", label: t("back") }}>
      {(e) => {
        const health = endpointHealth(e);
        return (
          <>
            <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
              <div className="min-w-0">
                <h1 className="flex flex-wrap items-center gap-2 text-xl font-semibold break-all">
                  <span className="font-mono">{e.url}</span>
                  <EndpointStateBadge endpoint={e} />
                </h1>
                {e.description ? <p className="mt-1 text-sm break-words text-muted-foreground" data-testid="endpoint-description">{e.description}</p> : null}
              </div>
              <div className="flex shrink-0 flex-wrap gap-2">
                <EndpointFormDialog target={{ kind: "edit", endpoint: e }} reason={reasons.manage} />
                {e.state === "active" ? <EnableToggle endpoint={e} reason={reasons.manage} /> : null}
                <DeleteEndpointButton endpoint={e} reason={reasons.manage} />
              </div>
            </div>
            {reasons.manage ? (
              <p className="mb-4 text-sm text-muted-foreground" data-testid="portal-read-only">
                {reasons.manage}
              </p>
            ) : null}
            {health !== "healthy" ? (
              <div className="mb-4">
                <EndpointHealthBanner
                  endpoint={e}
                  action={
                    <div className="space-y-2">
                      {e.state !== "active" ? (
                        <p className="text-muted-foreground">
                          {t("disabledSince")} <RelativeTime value={e.updated_at} />
                        </p>
                      ) : null}
                      <p>{t(`next.${health}`, { product: theme.name })}</p>
                      {e.state !== "active" ? <EnableToggle endpoint={e} reason={reasons.manage} /> : null}
                    </div>
                  }
                />
              </div>
            ) : null}
            <div className="grid gap-4 lg:grid-cols-3">
              <Card className="p-4 lg:col-span-2">
                <h2 className="mb-3 text-sm font-semibold">{t("statsTitle")}</h2>
                <EndpointStatsChart endpointId={e.id} />
              </Card>
              <Card className="p-4">
                <h2 className="mb-3 text-sm font-semibold">{t("settings")}</h2>
                <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
                  <dt className="text-muted-foreground">{t("columns.eventTypes")}</dt>
                  <dd className="break-all">{e.event_types?.join(", ") ?? t("allEventTypes")}</dd>
                  <dt className="text-muted-foreground">{t("headers")}</dt>
                  <dd className="font-mono text-xs break-all">{Object.keys(e.headers).join(", ") || "—"}</dd>
                  <dt className="text-muted-foreground">{t("rateLimit")}</dt>
                  <dd>{e.rate_limit_per_second === null ? t("noRateLimit") : t("rateValue", { count: e.rate_limit_per_second })}</dd>
                  <dt className="text-muted-foreground">{t("updated")}</dt>
                  <dd>
                    <RelativeTime value={e.updated_at} />
                  </dd>
                </dl>
                <div className="mt-4 flex flex-col gap-2">
                  <Link className={link} href={`/portal/deliveries?endpoint_id=${encodeURIComponent(e.id)}`}>
                    {t("deliveries")}
                  </Link>
                  <Link className={link} href={`/portal/recover?endpoint_id=${encodeURIComponent(e.id)}`}>
                    {t("recover")}
                  </Link>
                  <Link className={link} href={`/portal/endpoints/${encodeURIComponent(e.id)}/receiving`}>
                    {receiving("endpointLink")}
                  </Link>
                  <Link className={link} href={`/portal/event-types?endpoint_id=${encodeURIComponent(e.id)}`}>
                    {receiving("eventTypesLink")}
                  </Link>
                </div>
              </Card>
              <SecretCard endpointId={e.id} revealReason={reasons.secrets} rotateReason={reasons.secrets} />
              <div className="lg:col-span-2">
                <TestSendCard endpoint={e} reason={reasons.manage} messageHref={deliveryHref} />
              </div>
            </div>
          </>
        );
      }}
    </EndpointGate>
  );
}
