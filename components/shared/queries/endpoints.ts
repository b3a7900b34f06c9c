"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApi } from "../api-context";
import { consumerKeys } from "./consumers";

import type { CreateEndpointInput, SendTestInput, TestFilterInput, UpdateEndpointInput } from "@/lib/endpoints/schemas";

export const endpointKeys = {
  all: ["endpoints"] as const,
  detail: (id: string) => [...endpointKeys.all, "detail", id] as const,
  stats: (id: string) => [...endpointKeys.all, "stats", id] as const,
  lines: (id: string) => [...endpointKeys.all, "lines", id] as const,
  testAttempts: (messageId: string) => [...endpointKeys.all, "test", messageId] as const,
};

const path = (id: string, rest = "") => `/endpoints/${encodeURIComponent(id)}${rest}`;

export function useEndpoint(id: string) {
  const call = useApi();
  return useQuery({ queryKey: endpointKeys.detail(id), queryFn: () => call("GET /endpoints/{id}", path(id)), refetchInterval: 15_000 });
}

export function useEndpointStats(id: string) {
  const call = useApi();
  return useQuery({ queryKey: endpointKeys.stats(id), queryFn: () => call("GET /endpoints/{id}/stats", path(id, "/stats")), refetchInterval: 30_000 });
}

/** An ordered endpoint's lines with messages waiting: read every few seconds while any wait, so a head that gets through is seen to. */
export function useEndpointLines(id: string) {
  const call = useApi();
  return useQuery({
    queryKey: endpointKeys.lines(id),
    queryFn: () => call("GET /endpoints/{id}/lines", path(id, "/lines")),
    refetchInterval: (query) => ((query.state.data?.lines_waiting ?? 0) > 0 ? 3_000 : 15_000),
  });
}

function useEndpointMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: endpointKeys.all }), client.invalidateQueries({ queryKey: consumerKeys.all })]),
  });
}

export function useSetEnabled(id: string) {
  const call = useApi();
  return useEndpointMutation((enable: boolean) => (enable ? call("POST /endpoints/{id}/enable", path(id, "/enable")) : call("POST /endpoints/{id}/disable", path(id, "/disable"))));
}

export function useCreateEndpoint(consumer: string) {
  const call = useApi();
  return useEndpointMutation((input: CreateEndpointInput) => call("POST /consumers/{consumer}/endpoints", `/consumers/${encodeURIComponent(consumer)}/endpoints`, { body: input }));
}

export function useDeleteEndpoint(id: string) {
  const call = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call("DELETE /endpoints/{id}", path(id)),
    onSuccess: () => {
      // The detail would refetch into a 404: drop it and refresh the lists.
      client.removeQueries({ queryKey: endpointKeys.detail(id) });
      return client.invalidateQueries({ queryKey: consumerKeys.all });
    },
  });
}

export function useUpdateEndpoint(id: string) {
  const call = useApi();
  return useEndpointMutation((patch: UpdateEndpointInput) => call("PATCH /endpoints/{id}", path(id), { body: patch }));
}

/** Reading the secret is audited on the server, so it is fetched only when the operator asks. */
export function useRevealSecret(id: string) {
  const call = useApi();
  return useMutation({ mutationFn: () => call("GET /endpoints/{id}/secret", path(id, "/secret")) });
}

export function useRotateSecret(id: string) {
  const call = useApi();
  return useMutation({ mutationFn: () => call("POST /endpoints/{id}/secret/rotate", path(id, "/secret/rotate"), { body: {} }) });
}

export function useSendTest(id: string) {
  const call = useApi();
  return useMutation({ mutationFn: (input: SendTestInput) => call("POST /endpoints/{id}/test", path(id, "/test"), { body: input }) });
}

/** Which of the endpoint's last messages a filter would let through; changes nothing, so every reader may. */
export function useTestFilter(id: string) {
  const call = useApi();
  return useMutation({
    mutationFn: (filter: TestFilterInput["filter"]) => call("POST /endpoints/{id}/filter/test", path(id, "/filter/test"), { body: { filter } }),
  });
}

/** The test message's attempt, polled until the worker has made it. */
export function useTestAttempt(messageId: string | null) {
  const call = useApi();
  return useQuery({
    queryKey: endpointKeys.testAttempts(messageId ?? ""),
    enabled: messageId !== null,
    queryFn: () => call("GET /messages/{id}/attempts", `/messages/${encodeURIComponent(messageId!)}/attempts`),
    refetchInterval: (query) => ((query.state.data?.data.length ?? 0) > 0 ? false : 1000),
  });
}
