"use client";

import Link from "next/link";
import { useNow, useTranslations } from "next-intl";
import { EndpointHealthBanner } from "../../shared/endpoint-health-banner";
import { EndpointOverview } from "../../shared/endpoints/endpoint-overview";
import { EndpointHeading, DestinationFacts, EventTypesFact, Fact, HeadersFact, OrderingFact, RateLimitFact, UpdatedFact } from "../../shared/endpoints/endpoint-facts";
import { ErrorMessage } from "../../shared/error-message";
import { RelativeTime } from "../../shared/relative-time";
import { CopyButton } from "../../ui/copy-button";
import { Skeleton } from "../../ui/skeleton";
import { useOperator } from "../operator-context";
import { EndpointFormDialog } from "../../shared/endpoints/endpoint-form-dialog";
import { sends } from "../../shared/destinations";
import { EnableToggle } from "../../shared/endpoints/enable-toggle";
import { useEndpoint } from "../../shared/queries/endpoints";
import { useConsumer } from "../../shared/queries/consumers";
import { ConsumerName } from "../../shared/names";
import { ApiError } from "../../shared/api";
import { SecretCard } from "../../shared/endpoints/secret-card";
import { TestSendCard } from "../../shared/endpoints/test-send-card";
import { PollingCard } from "../../shared/endpoints/polling-card";
import { FilterCard } from "../../shared/endpoints/filter-card";
import { OrderingCard } from "../../shared/endpoints/ordering-card";

const messageHref = (messageId: string) => `/messages/${encodeURIComponent(messageId)}`;

export function EndpointDetailScreen({ id }: { id: string }) {
  const t = useTranslations("endpoints");
  const common = useTranslations("common");
  const catalog = useTranslations("eventCatalog");
  const { role } = useOperator();
  const endpoint = useEndpoint(id);
  const now = useNow({ updateInterval: 15_000 });
  if (endpoint.isPending) return <Skeleton className="h-48 w-full" />;
  if (endpoint.isError) return <ErrorMessage error={endpoint.error} retry={() => endpoint.refetch()} />;
  const e = endpoint.data;
  const canWrite = role === "admin";
  const reason = canWrite ? null : t("viewerNote");
  const circuitOpen = e.circuit_open_until !== null && new Date(e.circuit_open_until).getTime() > now.getTime();

  return (
    <>
      <EndpointHeading
        endpoint={e}
        above={<p className="text-sm text-muted-foreground">{t("title")}</p>}
        below={e.description ? <p className="mt-1 text-sm text-muted-foreground">{e.description}</p> : null}
        actions={
          <>
            <EndpointFormDialog target={{ kind: "edit", endpoint: e }} reason={reason} withConcurrency />
            <EnableToggle endpoint={e} reason={reason} />
          </>
        }
      />
      {!canWrite ? <p className="mb-4 text-sm text-muted-foreground">{t("viewerNote")}</p> : null}
      <div className="mb-4">
        <EndpointHealthBanner endpoint={e} />
      </div>
      <EndpointOverview
        endpointId={e.id}
        polled={e.kind === "polling"}
        statsTitle={t("statsTitle")}
        factsTitle={t("facts")}
        facts={
          <>
            <Fact label={t("id")} className="flex items-center gap-1">
              <code className="font-mono text-xs break-all">{e.id}</code>
              <CopyButton value={e.id} label={t("copyId")} copiedLabel={common("copied")} failedLabel={common("copyFailed")} />
            </Fact>
            <Fact label={t("consumer")}>
              <EndpointConsumer id={e.consumer_id} />
            </Fact>
            <DestinationFacts endpoint={e} />
            <Fact label={t("streak")} testId="failure-streak">
              {e.failing_since ? (
                <>
                  {t("failuresInARow", { count: e.consecutive_failures })}, <RelativeTime value={e.failing_since} />
                </>
              ) : (
                t("noStreak")
              )}
            </Fact>
            {sends(e.kind) ? (
              <>
                <Fact label={t("circuit")}>{circuitOpen ? <>{t("circuitOpen")} <RelativeTime value={e.circuit_open_until} /></> : t("circuitClosed")}</Fact>
                <Fact label={t("cap")}>{t("capValue", { count: e.max_concurrency })}</Fact>
              </>
            ) : null}
            <RateLimitFact endpoint={e} label={t("rateLimit")} none={t("noRateLimit")} perSecond={(count) => t("rateValue", { count })} />
            <EventTypesFact endpoint={e} label={t("eventTypes")} all={t("allEventTypes")} />
            <HeadersFact endpoint={e} label={t("headers")} />
            <OrderingFact endpoint={e} />
            <UpdatedFact endpoint={e} label={t("updated")} />
          </>
        }
        links={[
          { href: `/messages?endpoint_id=${encodeURIComponent(e.id)}`, label: t("deliveries") },
          { href: `/recoveries?endpoint_id=${encodeURIComponent(e.id)}`, label: t("recover") },
          { href: `/event-types?endpoint_id=${encodeURIComponent(e.id)}`, label: catalog("openForEndpoint") },
        ]}
        secretCard={<SecretCard endpointId={e.id} revealReason={canWrite ? null : t("secret.viewerCannotReveal")} rotateReason={canWrite ? null : t("secret.viewerCannotReveal")} />}
        testCard={e.kind === "polling" ? <PollingCard endpoint={e} reason={reason} /> : <TestSendCard endpoint={e} reason={reason} messageHref={messageHref} />}
        orderingCard={e.ordering === "ordered" ? <OrderingCard endpoint={e} messageHref={messageHref} /> : null}
        filterCard={<FilterCard endpoint={e} reason={canWrite ? null : t("filter.viewerNote")} />}
      />
    </>
  );
}

/** The endpoint's consumer by name (one read, cached with the consumer's own page). */
function EndpointConsumer({ id }: { id: string }) {
  const consumer = useConsumer(id);
  const href = `/consumers/${encodeURIComponent(id)}`;
  if (consumer.isPending) return <span className="text-muted-foreground">…</span>;
  // Not found is a consumer deleted meanwhile; any other failure still links to its page.
  if (consumer.isError && !(consumer.error instanceof ApiError && consumer.error.problem.status === 404)) {
    return (
      <Link href={href} className="font-mono text-xs text-primary underline-offset-2 hover:underline">
        {id}
      </Link>
    );
  }
  return <ConsumerName id={id} consumer={consumer.data} href={href} inline />;
}
