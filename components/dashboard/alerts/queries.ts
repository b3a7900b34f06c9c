"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Page } from "../../shared/api";

export const CHANNEL_KINDS = ["slack", "teams", "chatwork", "email", "webhook"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

import type { Alert } from "@/lib/alerts/schemas";

export type { Alert };
/** A channel as listed, and as created (a webhook channel's `secret`, shown once). */
export type AlertChannel = import("@/lib/alerts/schemas").AlertChannel & { secret?: string };

export type AlertFilters = { kind?: string; endpoint_id?: string; since?: string };

export const alertKeys = {
  all: ["alerts"] as const,
  channels: () => [...alertKeys.all, "channels"] as const,
  log: (filters: AlertFilters) => [...alertKeys.all, "log", filters] as const,
};

export function useAlertChannels() {
  return useQuery({ queryKey: alertKeys.channels(), queryFn: () => api<Page<AlertChannel>>("/alert-channels?limit=250") });
}

export function useAlertLog(filters: AlertFilters, refetchInterval: number | false = 15_000) {
  return useInfiniteQuery({
    queryKey: alertKeys.log(filters),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: "50" });
      for (const [k, v] of Object.entries(filters)) if (v) params.set(k, v);
      if (pageParam) params.set("cursor", pageParam);
      return api<Page<Alert>>(`/alerts?${params}`);
    },
    getNextPageParam: (last) => last.next_cursor,
    refetchInterval,
  });
}

export type ChannelInput = { kind: ChannelKind; name: string; config: Record<string, unknown>; kinds: string[] | null };

function useChannelMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.all }) });
}

export const useCreateChannel = () => useChannelMutation((input: ChannelInput) => api<AlertChannel>("/alert-channels", { method: "POST", body: input }));

export const useUpdateChannel = () =>
  useChannelMutation(({ id, ...patch }: { id: string; name: string; config?: Record<string, unknown>; kinds: string[] | null }) =>
    api<AlertChannel>(`/alert-channels/${encodeURIComponent(id)}`, { method: "PATCH", body: patch }),
  );

export const useDeleteChannel = () => useChannelMutation((id: string) => api<void>(`/alert-channels/${encodeURIComponent(id)}`, { method: "DELETE" }));

export const useTestChannel = () => useChannelMutation((id: string) => api<{ id: string }>(`/alert-channels/${encodeURIComponent(id)}/test`, { method: "POST" }));
