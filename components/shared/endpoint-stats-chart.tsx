"use client";

import { useFormatter, useTranslations } from "next-intl";
import { readableDuration } from "../../lib/duration";
import { Skeleton } from "../ui/skeleton";
import { ErrorMessage } from "./error-message";
import { useEndpointStats } from "./queries/endpoints";
import type { EndpointStats } from "./resources";
import { StatsChart } from "./stats-chart";

/**
 * An endpoint's totals since their `since`, then its series over the range the viewer picks. A
 * polling endpoint's times are how long its messages waited to be polled, and say so.
 */
export function EndpointStatsChart({ endpointId, polled = false }: { endpointId: string; polled?: boolean }) {
  const stats = useEndpointStats(endpointId);
  if (stats.isPending) return <Skeleton className="h-40" />;
  if (stats.isError) return <ErrorMessage error={stats.error} />;
  return <EndpointTotals endpointId={endpointId} stats={stats.data} polled={polled} />;
}

function EndpointTotals({ endpointId, stats, polled }: { endpointId: string; stats: EndpointStats; polled: boolean }) {
  const t = useTranslations("endpointHealth.stats");
  const format = useFormatter();
  const time = (ms: number | null) => {
    if (ms === null) return "—";
    const { value, unit } = readableDuration(ms);
    return format.number(value, { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: unit === "millisecond" ? 0 : 1 });
  };
  const figures: { key: string; id?: string; value: string }[] = [
    { key: "attempts", value: format.number(stats.attempts) },
    { key: "succeeded", value: format.number(stats.succeeded) },
    { key: "failed", value: format.number(stats.failed) },
    { key: "successRate", value: stats.success_rate === null ? "—" : format.number(stats.success_rate, { style: "percent", maximumFractionDigits: 1 }) },
    { key: polled ? "p50Polled" : "p50", id: "p50", value: time(stats.p50_ms) },
    { key: polled ? "p99Polled" : "p99", id: "p99", value: time(stats.p99_ms) },
  ];
  return (
    <div>
      <dl className="grid grid-cols-3 gap-3 sm:grid-cols-6">
        {figures.map((f) => (
          <div key={f.key} className="rounded-md border border-border p-3">
            <dt className="text-xs text-muted-foreground">{t(f.key)}</dt>
            <dd className="mt-1 text-lg font-semibold tabular-nums" data-testid={`stat-${f.id ?? f.key}`}>
              {f.value}
            </dd>
          </div>
        ))}
      </dl>
      <div className="mt-4 border-t border-border pt-4">
        <StatsChart endpointId={endpointId} polled={polled} />
      </div>
    </div>
  );
}
