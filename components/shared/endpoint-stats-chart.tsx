"use client";

import { BarChart3 } from "lucide-react";
import { useFormatter, useTranslations } from "next-intl";
import type { EndpointStats } from "./resources";

/**
 * An endpoint's figures since `stats.since`. The per-minute series (GET /stats) is not served yet,
 * so the chart area says so instead of drawing something made up.
 */
export function EndpointStatsChart({ stats }: { stats: EndpointStats }) {
  const t = useTranslations("endpointHealth.stats");
  const format = useFormatter();
  const figures = [
    { key: "attempts", value: format.number(stats.attempts) },
    { key: "succeeded", value: format.number(stats.succeeded) },
    { key: "failed", value: format.number(stats.failed) },
    { key: "successRate", value: stats.success_rate === null ? "—" : format.number(stats.success_rate, { style: "percent", maximumFractionDigits: 1 }) },
    { key: "p50", value: stats.p50_ms === null ? "—" : `${format.number(stats.p50_ms)} ms` },
    { key: "p99", value: stats.p99_ms === null ? "—" : `${format.number(stats.p99_ms)} ms` },
  ] as const;
  return (
    <div>
      <dl className="grid grid-cols-3 gap-3 sm:grid-cols-6">
        {figures.map((f) => (
          <div key={f.key} className="rounded-md border border-border p-3">
            <dt className="text-xs text-muted-foreground">{t(f.key)}</dt>
            <dd className="mt-1 text-lg font-semibold tabular-nums" data-testid={`stat-${f.key}`}>
              {f.value}
            </dd>
          </div>
        ))}
      </dl>
      <ChartPlaceholder />
    </div>
  );
}

/** Where a time series will go once the rollup's GET /stats is served. */
export function ChartPlaceholder({ className = "mt-4 h-40" }: { className?: string }) {
  const t = useTranslations("endpointHealth.stats");
  return (
    <div role="note" className={`flex flex-col items-center justify-center gap-2 rounded-md border border-dashed border-border text-center text-sm text-muted-foreground ${className}`}>
      <BarChart3 aria-hidden className="h-5 w-5" />
      <p className="font-medium">{t("seriesTitle")}</p>
      <p className="max-w-sm text-xs">{t("seriesNotYet")}</p>
    </div>
  );
}
