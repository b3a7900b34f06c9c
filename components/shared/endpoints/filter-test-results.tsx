"use client";

import { Inbox } from "lucide-react";
import { useTranslations } from "next-intl";
import type { FilterTestResult } from "@/lib/endpoints/schemas";
import { shortId } from "../names";
import { RelativeTime } from "../relative-time";
import { Badge } from "../../ui/badge";
import { EmptyNote } from "../../ui/empty-note";

/**
 * What a filter test answered: how many of the endpoint's last messages the filter would let
 * through, and each one with its badge. `stale` says the filter was changed since.
 */
export function FilterTestResults({ results, stale }: { results: FilterTestResult["results"]; stale: boolean }) {
  const t = useTranslations("endpoints.filter.test");
  if (results.length === 0) {
    return <EmptyNote icon={Inbox} title={t("emptyTitle")} body={t("emptyBody")} testId="filter-test-empty" />;
  }
  const delivered = results.filter((r) => r.delivered).length;
  return (
    <div data-testid="filter-test-results">
      <p className="text-sm font-medium" data-testid="filter-test-count">
        {t("count", { delivered, total: results.length })}
      </p>
      {stale ? <p className="mt-1 text-xs text-muted-foreground">{t("stale")}</p> : null}
      <ul className="mt-2 max-h-64 divide-y divide-border overflow-auto rounded-md border border-border">
        {results.map((result) => (
          <li key={result.message_id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1.5 text-sm" data-testid="filter-test-message">
            <code title={result.message_id} className="font-mono text-xs text-muted-foreground">
              {shortId(result.message_id)}
            </code>
            <span className="min-w-0 flex-1 truncate font-mono text-xs" title={result.event_type}>
              {result.event_type}
            </span>
            <span className="text-xs text-muted-foreground">
              <RelativeTime value={result.created_at} />
            </span>
            <Badge tone={result.delivered ? "success" : "neutral"} className="w-28 justify-center" data-testid="filter-test-badge">
              {result.delivered ? t("delivered") : t("filtered")}
            </Badge>
          </li>
        ))}
      </ul>
    </div>
  );
}
