"use client";

import { useQuery } from "@tanstack/react-query";
import { useApi } from "../../shared/api-context";

export const receivingKeys = {
  all: ["receiving"] as const,
  latestAttempt: (endpointId: string) => [...receivingKeys.all, "latest-attempt", endpointId] as const,
  secret: (endpointId: string) => [...receivingKeys.all, "secret", endpointId] as const,
};

/** The endpoint's newest attempt (its request headers are what the receiver last got), polled so a test send shows up. */
export function useLatestAttempt(endpointId: string) {
  const call = useApi();
  return useQuery({
    queryKey: receivingKeys.latestAttempt(endpointId),
    queryFn: async () => (await call("GET /attempts", `/attempts?endpoint_id=${encodeURIComponent(endpointId)}&limit=1`)).data[0] ?? null,
    refetchInterval: 5_000,
  });
}

/**
 * The signing secret, to fill into the samples. Each read is an audited `endpoint.secret_viewed`,
 * so it is read once per visit of the page (never refetched in the background) and only when asked.
 */
export function useSampleSecret(endpointId: string, enabled: boolean) {
  const call = useApi();
  return useQuery({
    queryKey: receivingKeys.secret(endpointId),
    queryFn: async () => (await call("GET /endpoints/{id}/secret", `/endpoints/${encodeURIComponent(endpointId)}/secret`)).key,
    enabled,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
