"use client";

import { useTranslations } from "next-intl";
import { RelativeTime } from "../../shared/relative-time";
import type { Attempt } from "../../shared/types";
import { Card } from "../../ui/card";
import { Skeleton } from "../../ui/skeleton";

/** Ours, in the order a reader needs them; any other header of an attempt is the endpoint's own. */
const KNOWN = [
  ["webhook-id", "webhookId"],
  ["webhook-timestamp", "webhookTimestamp"],
  ["webhook-signature", "webhookSignature"],
  ["webhook-test", "webhookTest"],
  ["content-type", "contentType"],
  ["user-agent", "userAgent"],
] as const;

/** What the general guide shows: shaped like a real request, but nobody's. */
const EXAMPLE: Record<string, string> = {
  "webhook-id": "msg_01jq4m2v8x3c5t7n9p0r2s4w6y",
  "webhook-timestamp": "1767225600",
  "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  "webhook-test": "true",
  "content-type": "application/json",
  "user-agent": "WebhookAdmin/0.1 (+https://github.com/webhook-admin)",
};

export type HeadersSource = { kind: "example" } | { kind: "loading" } | { kind: "latest"; attempt: Attempt | null };

/** The headers of a webhook request, each with what it means: an endpoint's latest real values, or examples. */
export function RequestHeaders({ source }: { source: HeadersSource }) {
  const t = useTranslations("receiving.headers");
  const sent = source.kind === "latest" ? (source.attempt?.request_headers ?? null) : source.kind === "example" ? EXAMPLE : null;
  const lowered = sent ? Object.fromEntries(Object.entries(sent).map(([name, value]) => [name.toLowerCase(), value])) : null;
  const known = new Set<string>(KNOWN.map(([name]) => name));
  const custom = lowered ? Object.keys(lowered).filter((name) => !known.has(name)).sort() : [];

  return (
    <Card className="p-4">
      <h2 className="text-base font-semibold">{t("title")}</h2>
      <p className="mt-1 text-sm text-muted-foreground">{t("description")}</p>
      <div className="mt-3 text-xs text-muted-foreground" data-testid="headers-source">
        {source.kind === "example" ? (
          t("example")
        ) : source.kind === "loading" ? (
          <Skeleton className="h-4 w-56" />
        ) : source.attempt && Object.keys(source.attempt.request_headers ?? {}).length > 0 ? (
          <>
            {t("latest")} <RelativeTime value={source.attempt.created_at} />
          </>
        ) : (
          t("none")
        )}
      </div>
      <dl className="mt-3 divide-y divide-border rounded-md border border-border text-sm" data-testid="request-headers">
        {KNOWN.map(([name, key]) => (
          <HeaderRow key={name} name={name} value={lowered ? (lowered[name] ?? null) : null} meaning={t(key)} loading={source.kind === "loading"} />
        ))}
        {custom.map((name) => (
          <HeaderRow key={name} name={name} value={lowered![name] ?? null} meaning={t("custom")} loading={false} />
        ))}
      </dl>
    </Card>
  );
}

function HeaderRow({ name, value, meaning, loading }: { name: string; value: string | null; meaning: string; loading: boolean }) {
  return (
    <div className="px-3 py-2" data-header={name}>
      <dt className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <code className="font-mono text-xs font-semibold">{name}</code>
        {loading ? (
          <Skeleton className="h-4 w-40" />
        ) : value !== null ? (
          <code className="min-w-0 font-mono text-xs break-all text-primary" data-testid={`header-value-${name}`}>
            {value}
          </code>
        ) : null}
      </dt>
      <dd className="mt-0.5 text-muted-foreground">{meaning}</dd>
    </div>
  );
}
