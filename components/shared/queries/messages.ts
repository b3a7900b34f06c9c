"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiCall } from "../api";
import { useApi } from "../api-context";


export type { DeliverySummary, MessageDetail, MessageSummary } from "@/lib/messages/schemas";

export const MESSAGE_FILTERS = ["consumer", "endpoint_id", "event_type", "status", "schema_invalid", "since", "until", "payload_contains"] as const;
export type MessageFilter = (typeof MESSAGE_FILTERS)[number];

export const messageKeys = {
  all: ["messages"] as const,
  list: (filters: Record<string, string>) => [...messageKeys.all, "list", filters] as const,
  detail: (id: string) => [...messageKeys.all, "detail", id] as const,
  attempts: (id: string) => [...messageKeys.all, "attempts", id] as const,
};

export const fetchMessages = (call: ApiCall, query: string) => call("GET /messages", `/messages?${query}`);

export function useMessage(id: string) {
  const call = useApi();
  return useQuery({ queryKey: messageKeys.detail(id), queryFn: () => call("GET /messages/{id}", `/messages/${encodeURIComponent(id)}`), refetchInterval: 3_000 });
}

export function useMessageAttempts(id: string) {
  const call = useApi();
  return useQuery({
    queryKey: messageKeys.attempts(id),
    queryFn: () => call("GET /messages/{id}/attempts", `/messages/${encodeURIComponent(id)}/attempts?limit=250`),
    refetchInterval: 3_000,
  });
}

/**
 * Resend to each endpoint given: one POST per endpoint, as the API has it. Answers how many were
 * queued, and how many of them go outside their endpoint's order (an ordered endpoint sends a
 * resend at once, not in its line).
 */
export function useResend(id: string) {
  const call = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (endpointIds: string[]) => {
      let outOfOrder = 0;
      for (const endpointId of endpointIds) {
        const queued = await call("POST /messages/{id}/resend", `/messages/${encodeURIComponent(id)}/resend`, { body: { endpoint_id: endpointId } });
        if (queued.out_of_order) outOfOrder += 1;
      }
      return { count: endpointIds.length, outOfOrder };
    },
    onSettled: () => client.invalidateQueries({ queryKey: messageKeys.all }),
  });
}

/** Deletes the message's payload (DELETE /messages/{id}/payload): the message and its log stay. */
export function useExpungePayload(id: string) {
  const call = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call("DELETE /messages/{id}/payload", `/messages/${encodeURIComponent(id)}/payload`),
    onSettled: () => client.invalidateQueries({ queryKey: messageKeys.all }),
  });
}
