"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "../../shared/api";


export type { DataLifecycle, Erasure } from "@/lib/retention/schemas";

/** GET /data-lifecycle, read again every few seconds while an erasure runs (its progress moves). */
export function useDataLifecycle(enabled: boolean) {
  return useQuery({
    queryKey: ["data-lifecycle"],
    queryFn: () => api("GET /data-lifecycle", "/data-lifecycle"),
    enabled,
    refetchInterval: (query) => (query.state.data?.erasures.some((e) => e.state === "running") ? 3_000 : 30_000),
  });
}
