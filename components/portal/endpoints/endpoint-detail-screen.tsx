"use client";

import { useTranslations } from "next-intl";
import { EndpointHealthBanner } from "../../shared/endpoint-health-banner";
import { EndpointOverview } from "../../shared/endpoints/endpoint-overview";
import { EndpointHeading, DestinationFacts, EventTypesFact, HeadersFact, OrderingFact, RateLimitFact, UpdatedFact } from "../../shared/endpoints/endpoint-facts";
import { EndpointFormDialog } from "../../shared/endpoints/endpoint-form-dialog";
import { EnableToggle } from "../../shared/endpoints/enable-toggle";
import { SecretCard } from "../../shared/endpoints/secret-card";
import { TestSendCard } from "../../shared/endpoints/test-send-card";
import { PollingCard } from "../../shared/endpoints/polling-card";
import { FilterCard } from "../../shared/endpoints/filter-card";
import { OrderingCard } from "../../shared/endpoints/ordering-card";
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
            <EndpointHeading
              endpoint={e}
              below={e.description ? <p className="mt-1 text-sm break-words text-muted-foreground" data-testid="endpoint-description">{e.description}</p> : null}
              actions={
                <>
                  <EndpointFormDialog target={{ kind: "edit", endpoint: e }} reason={reasons.manage} />
                  {e.state === "active" ? <EnableToggle endpoint={e} reason={reasons.manage} /> : null}
                  <DeleteEndpointButton endpoint={e} reason={reasons.manage} />
                </>
              }
              wrapActions
            />
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
              polled={e.kind === "polling"}
              statsTitle={t("statsTitle")}
              factsTitle={t("settings")}
              facts={
                <>
                  <DestinationFacts endpoint={e} />
                  <EventTypesFact endpoint={e} label={t("columns.eventTypes")} all={t("allEventTypes")} />
                  <HeadersFact endpoint={e} label={t("headers")} />
                  <RateLimitFact endpoint={e} label={t("rateLimit")} none={t("noRateLimit")} perSecond={(count) => t("rateValue", { count })} />
                  <OrderingFact endpoint={e} />
                  <UpdatedFact endpoint={e} label={t("updated")} />
                </>
              }
              links={[
                { href: `/portal/deliveries?endpoint_id=${encodeURIComponent(e.id)}`, label: t("deliveries") },
                { href: `/portal/recover?endpoint_id=${encodeURIComponent(e.id)}`, label: t("recover") },
                { href: `/portal/endpoints/${encodeURIComponent(e.id)}/receiving`, label: receiving("endpointLink") },
                { href: `/portal/event-types?endpoint_id=${encodeURIComponent(e.id)}`, label: receiving("eventTypesLink") },
              ]}
              secretCard={<SecretCard endpointId={e.id} revealReason={reasons.secrets} rotateReason={reasons.rotate} />}
              testCard={e.kind === "polling" ? <PollingCard endpoint={e} reason={reasons.manage} /> : <TestSendCard endpoint={e} reason={reasons.manage} messageHref={deliveryHref} />}
              orderingCard={e.ordering === "ordered" ? <OrderingCard endpoint={e} messageHref={deliveryHref} /> : null}
              filterCard={<FilterCard endpoint={e} reason={reasons.manage} />}
            />
          </>
        );
      }}
    </EndpointGate>
  );
}
