"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApi } from "../api-context";
import type { PortalLink } from "@/lib/portal/schemas";

export const consumerKeys = {
  all: ["consumers"] as const,
  list: (q: string) => [...consumerKeys.all, "list", q] as const,
  detail: (ref: string) => [...consumerKeys.all, "detail", ref] as const,
  endpoints: (ref: string) => [...consumerKeys.all, "endpoints", ref] as const,
};

const enc = encodeURIComponent;

export function useConsumers(q: string) {
  const call = useApi();
  return useInfiniteQuery({
    queryKey: consumerKeys.list(q),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: "50" });
      if (q) params.set("q", q);
      if (pageParam) params.set("cursor", pageParam);
      return call("GET /consumers", `/consumers?${params}`);
    },
    getNextPageParam: (last) => last.next_cursor,
  });
}

export function useConsumer(ref: string) {
  const call = useApi();
  return useQuery({ queryKey: consumerKeys.detail(ref), queryFn: () => call("GET /consumers/{consumer}", `/consumers/${enc(ref)}`) });
}

export function useConsumerEndpoints(ref: string) {
  const call = useApi();
  return useQuery({
    queryKey: consumerKeys.endpoints(ref),
    queryFn: () => call("GET /consumers/{consumer}/endpoints", `/consumers/${enc(ref)}/endpoints?limit=250`),
    refetchInterval: 15_000,
  });
}

export function useUpdateAlertEmails(ref: string) {
  const call = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (alert_emails: string[]) => call("PATCH /consumers/{consumer}", `/consumers/${enc(ref)}`, { body: { alert_emails } }),
    onSuccess: () => client.invalidateQueries({ queryKey: consumerKeys.all }),
  });
}

/** An operator's change of the consumer's weight: its share of the engine beside other consumers with due work. */
export function useUpdateWeight(ref: string) {
  const call = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (weight: number) => call("PATCH /consumers/{consumer}", `/consumers/${enc(ref)}`, { body: { weight } }),
    onSuccess: () => client.invalidateQueries({ queryKey: consumerKeys.all }),
  });
}

/** A one-time portal link into this consumer's portal (all capabilities), minted by an operator. */
export function useMintPortalLink(ref: string) {
  const call = useApi();
  return useMutation({ mutationFn: () => call("POST /consumers/{consumer}/portal-links", `/consumers/${enc(ref)}/portal-links`, { body: {} }) as Promise<PortalLink> });
}

export function useEndPortalSessions(ref: string) {
  const call = useApi();
  return useMutation({ mutationFn: () => call("DELETE /consumers/{consumer}/portal-sessions", `/consumers/${enc(ref)}/portal-sessions`) });
}
