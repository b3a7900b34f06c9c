"use client";

import { useQuery } from "@tanstack/react-query";
import { useApi } from "../api-context";
import { fillSeries, rangeWindow, type StatsRange } from "../stats-series";

/** Whose attempts a chart counts: one endpoint's, one consumer's, or (neither) everyone the credential sees. */
export type StatsScope = { endpointId?: string; consumer?: string };

export const statsKeys = {
  all: ["stats"] as const,
  series: (scope: StatsScope, range: StatsRange) => [...statsKeys.all, scope.endpointId ?? "", scope.consumer ?? "", range] as const,
};

/**
 * GET /stats for the range ending now, filled onto the range's every bucket. The window is taken
 * when the query runs, not when the component renders, so the key stays put while each refetch
 * moves the window on.
 */
export function useStatsSeries(scope: StatsScope, range: StatsRange) {
  const call = useApi();
  return useQuery({
    queryKey: statsKeys.series(scope, range),
    queryFn: async () => {
      const window = rangeWindow(range, Date.now());
      const params = new URLSearchParams({ since: window.since.toISOString(), until: window.until.toISOString(), bucket: window.bucket });
      if (scope.endpointId) params.set("endpoint_id", scope.endpointId);
      if (scope.consumer) params.set("consumer", scope.consumer);
      const series = await call("GET /stats", `/stats?${params}`);
      return { ...window, points: fillSeries(series.data, window) };
    },
    refetchInterval: range === "hour" ? 30_000 : 60_000,
  });
}
