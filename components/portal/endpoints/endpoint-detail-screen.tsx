"use client";

import { useTranslations } from "next-intl";
import { EndpointHealthBanner } from "../../shared/endpoint-health-banner";
import { EndpointStateBadge } from "../../shared/endpoint-state-badge";
import { EndpointOverview } from "../../shared/endpoints/endpoint-overview";
import { EndpointFormDialog } from "../../shared/endpoints/endpoint-form-dialog";
import { EnableToggle } from "../../shared/endpoints/enable-toggle";
import { SecretCard } from "../../shared/endpoints/secret-card";
import { TestSendCard } from "../../shared/endpoints/test-send-card";
import { useEndpoint } from "../../shared/queries/endpoints";
import { RelativeTime } from "../../shared/relative-time";
import { endpointHealth } from "../../shared/resources";
import { EndpointGate } from "./endpoint-gate";
import { usePortalSession } from "../session-context";
import { DeleteEndpointButton } from "./delete-endpoint-button";
import { usePortalReasons } from "./use-portal-reasons";
import { ReadOnlyNote } from "./read-only-note";

const deliveryHref = (messageId: string) => `/portal/deliveries/${encodeURIComponent(messageId)}`;

export function PortalEndpointDetailScreen({ id }: { id: string }) {
  const t = useTranslations("portalEndpoints");
  const receiving = useTranslations("receiving");
  const { theme } = usePortalSession();
  const reasons = usePortalReasons();
  const endpoint = useEndpoint(id);
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
            <ReadOnlyNote reason={reasons.manage} />
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
            <EndpointOverview
              endpointId={e.id}
              statsTitle={t("statsTitle")}
              factsTitle={t("settings")}
              facts={
                <>
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
                </>
              }
              links={[
                { href: `/portal/deliveries?endpoint_id=${encodeURIComponent(e.id)}`, label: t("deliveries") },
                { href: `/portal/recover?endpoint_id=${encodeURIComponent(e.id)}`, label: t("recover") },
                { href: `/portal/endpoints/${encodeURIComponent(e.id)}/receiving`, label: receiving("endpointLink") },
                { href: `/portal/event-types?endpoint_id=${encodeURIComponent(e.id)}`, label: receiving("eventTypesLink") },
              ]}
              secretCard={<SecretCard endpointId={e.id} revealReason={reasons.secrets} rotateReason={reasons.secrets} />}
              testCard={<TestSendCard endpoint={e} reason={reasons.manage} messageHref={deliveryHref} />}
            />
          </>
        );
      }}
    </EndpointGate>
  );
}
