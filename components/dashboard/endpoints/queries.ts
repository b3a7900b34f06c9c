"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Page } from "../../shared/api";
import type { Attempt, Endpoint, EndpointStats } from "../../shared/resources";
import { consumerKeys } from "../consumers/queries";

export const endpointKeys = {
  all: ["endpoints"] as const,
  detail: (id: string) => [...endpointKeys.all, "detail", id] as const,
  stats: (id: string) => [...endpointKeys.all, "stats", id] as const,
  testAttempts: (messageId: string) => [...endpointKeys.all, "test", messageId] as const,
};

const path = (id: string, rest = "") => `/endpoints/${encodeURIComponent(id)}${rest}`;

export function useEndpoint(id: string) {
  return useQuery({ queryKey: endpointKeys.detail(id), queryFn: () => api<Endpoint>(path(id)), refetchInterval: 15_000 });
}

export function useEndpointStats(id: string) {
  return useQuery({ queryKey: endpointKeys.stats(id), queryFn: () => api<EndpointStats>(path(id, "/stats")), refetchInterval: 30_000 });
}

function useEndpointMutation<I, O>(id: string, fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: endpointKeys.all }), client.invalidateQueries({ queryKey: consumerKeys.all })]),
  });
}

export const useSetEnabled = (id: string) =>
  useEndpointMutation(id, (enable: boolean) => api<Endpoint>(path(id, enable ? "/enable" : "/disable"), { method: "POST" }));

export type EndpointPatch = Partial<Pick<Endpoint, "url" | "description" | "event_types" | "headers" | "rate_limit_per_second"> & { max_concurrency: number | null }>;
export const useUpdateEndpoint = (id: string) => useEndpointMutation(id, (patch: EndpointPatch) => api<Endpoint>(path(id), { method: "PATCH", body: patch }));

/** Reading the secret is audited on the server, so it is fetched only when the operator asks. */
export const useRevealSecret = (id: string) => useMutation({ mutationFn: () => api<{ key: string }>(path(id, "/secret")) });
export const useRotateSecret = (id: string) => useMutation({ mutationFn: () => api<{ key: string }>(path(id, "/secret/rotate"), { method: "POST", body: {} }) });

export const useSendTest = (id: string) =>
  useMutation({ mutationFn: (input: { event_type?: string }) => api<{ message_id: string }>(path(id, "/test"), { method: "POST", body: input }) });

/** The test message's attempt, polled until the worker has made it. */
export function useTestAttempt(messageId: string | null) {
  return useQuery({
    queryKey: endpointKeys.testAttempts(messageId ?? ""),
    enabled: messageId !== null,
    queryFn: () => api<Page<Attempt>>(`/messages/${encodeURIComponent(messageId!)}/attempts`),
    refetchInterval: (query) => ((query.state.data?.data.length ?? 0) > 0 ? false : 1000),
  });
}
