"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { knownKind, sends, shownTarget } from "../destinations";
import { EndpointStateBadge } from "../endpoint-state-badge";
import { Badge } from "../../ui/badge";
import { RelativeTime } from "../relative-time";
import type { Endpoint } from "../resources";

/**
 * An endpoint page's heading, in the dashboard and in the portal alike: its URL and state, what the
 * page says above and below them, and its actions on the right (`wrapActions` where they are many).
 */
export function EndpointHeading({
  endpoint,
  above,
  below,
  actions,
  wrapActions,
}: {
  endpoint: Endpoint;
  above?: ReactNode;
  below: ReactNode;
  actions: ReactNode;
  wrapActions?: boolean;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        {above}
        <h1 className="flex flex-wrap items-center gap-2 text-xl font-semibold break-all">
          <EndpointAddress endpoint={endpoint} />
          <EndpointStateBadge endpoint={endpoint} />
        </h1>
        {below}
      </div>
      <div className={wrapActions ? "flex shrink-0 flex-wrap gap-2" : "flex shrink-0 gap-2"}>{actions}</div>
    </div>
  );
}

/**
 * Where an endpoint delivers, in one line: its URL (a broker's masked, with where in the broker),
 * after its kind's name for every kind but http; a kind without an address (polling) by its name.
 */
export function EndpointAddress({ endpoint, className = "font-mono" }: { endpoint: Endpoint; className?: string }) {
  const kinds = useTranslations("endpoints.edit.kinds");
  const kind = knownKind(endpoint.kind);
  const name = kind ? kinds(kind) : endpoint.kind;
  if (endpoint.kind === "http") return <span className={className}>{endpoint.url}</span>;
  return (
    <>
      <Badge tone="primary" className="mr-1.5 font-sans" data-testid="endpoint-kind">
        {name}
      </Badge>
      {endpoint.url ? <span className={className}>{endpoint.url}</span> : null}
    </>
  );
}

/** One fact of an endpoint's card (EndpointOverview's `facts`): a <dt>/<dd> pair. */
export function Fact({ label, className, testId, children }: { label: string; className?: string; testId?: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className={className} data-testid={testId}>
        {children}
      </dd>
    </>
  );
}

// The settings both pages show, each under the label of the page's own wording.

export function EventTypesFact({ endpoint, label, all }: { endpoint: Endpoint; label: string; all: string }) {
  return (
    <Fact label={label} className="break-all">
      {endpoint.event_types?.join(", ") ?? all}
    </Fact>
  );
}

/** Custom headers go over HTTP only: other kinds have none to show. */
export function HeadersFact({ endpoint, label }: { endpoint: Endpoint; label: string }) {
  if (endpoint.kind !== "http") return null;
  return (
    <Fact label={label} className="font-mono text-xs break-all">
      {Object.keys(endpoint.headers).join(", ") || "—"}
    </Fact>
  );
}

export function RateLimitFact({ endpoint, label, none, perSecond }: { endpoint: Endpoint; label: string; none: string; perSecond: (count: number) => string }) {
  if (!sends(endpoint.kind)) return null;
  return <Fact label={label}>{endpoint.rate_limit_per_second === null ? none : perSecond(endpoint.rate_limit_per_second)}</Fact>;
}

export function UpdatedFact({ endpoint, label }: { endpoint: Endpoint; label: string }) {
  return (
    <Fact label={label}>
      <RelativeTime value={endpoint.updated_at} />
    </Fact>
  );
}

/** Whether the endpoint delivers in order, and by which key (the wording is the ordering card's, on both pages). */
export function OrderingFact({ endpoint }: { endpoint: Endpoint }) {
  const t = useTranslations("endpoints.ordering");
  const key = endpoint.ordering_key;
  if (!sends(endpoint.kind)) return null;
  return (
    <Fact label={t("fact")} className="break-all" testId="ordering-fact">
      {endpoint.ordering === "none"
        ? t("any")
        : key === null
          ? t("inOrderOneLine")
          : t.rich("inOrderBy", { key, code: (chunks) => <code className="font-mono text-xs">{chunks}</code> })}
    </Fact>
  );
}

/**
 * Where the endpoint delivers: its kind, and a broker kind's target as the API answers it — the
 * URL with its password masked (the credentials are never sent to a screen), and where in the
 * broker the message goes.
 */
export function DestinationFacts({ endpoint }: { endpoint: Endpoint }) {
  const t = useTranslations("endpoints.destination");
  const kinds = useTranslations("endpoints.edit.kinds");
  const target = shownTarget(endpoint);
  const kind = knownKind(endpoint.kind);
  return (
    <>
      <Fact label={t("kind")} testId="destination-kind">
        {kind ? kinds(kind) : endpoint.kind}
      </Fact>
      {target ? (
        <>
          <Fact label={t(endpoint.kind === "amqp" ? "broker" : "server")} className="font-mono text-xs break-all" testId="destination-url">
            {target.url}
          </Fact>
          {endpoint.kind === "amqp" ? (
            <>
              <Fact label={t("exchange")} className="font-mono text-xs break-all" testId="destination-exchange">
                {target.exchange || <span className="font-sans text-muted-foreground">{t("defaultExchange")}</span>}
              </Fact>
              <Fact label={t("routingKey")} className="font-mono text-xs break-all" testId="destination-routing-key">
                {target.routing_key || <span className="font-sans text-muted-foreground">{t("emptyRoutingKey")}</span>}
              </Fact>
            </>
          ) : (
            <>
              <Fact label={t("stream")} className="font-mono text-xs break-all" testId="destination-stream">
                {target.stream}
              </Fact>
              <Fact label={t("maxLen")} testId="destination-max-len">
                {target.max_len == null ? t("untrimmed") : t("trimmedTo", { count: target.max_len })}
              </Fact>
            </>
          )}
        </>
      ) : null}
    </>
  );
}
