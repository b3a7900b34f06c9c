"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { Endpoint } from "../resources";

/** Above a catalog opened from an endpoint: whose subscriptions are marked, and the way back. */
export function SubscriptionNote({ endpoint, endpointHref, catalogHref }: { endpoint: Endpoint; endpointHref: string; catalogHref: string }) {
  const t = useTranslations("eventCatalog");
  const link = "font-medium text-primary underline-offset-2 hover:underline";
  return (
    <div className="mb-4 space-y-1 rounded-md border border-border bg-surface p-3 text-sm" data-testid="subscription-note">
      <p className="break-words">
        <span className="text-muted-foreground">{t("forEndpoint")}</span>{" "}
        <Link href={endpointHref} className={`${link} font-mono break-all`}>
          {endpoint.url}
        </Link>
      </p>
      <p>{endpoint.event_types === null ? t("marksAll") : t("marksSome", { count: endpoint.event_types.length })}</p>
      <p>
        <Link href={catalogHref} className={link}>
          {t("unmark")}
        </Link>
      </p>
    </div>
  );
}
