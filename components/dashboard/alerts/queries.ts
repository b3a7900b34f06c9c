"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Page } from "../../shared/api";

import type { Alert, AlertChannel, AlertTestQueued, CreateAlertChannelInput, CreatedAlertChannel, UpdateAlertChannelInput } from "@/lib/alerts/schemas";

export type { Alert, AlertChannel, CreateAlertChannelInput };

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

function useChannelMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.all }) });
}

export const useCreateChannel = () => useChannelMutation((input: CreateAlertChannelInput) => api<CreatedAlertChannel>("/alert-channels", { method: "POST", body: input }));

export const useUpdateChannel = () =>
  useChannelMutation(({ id, ...patch }: UpdateAlertChannelInput & { id: string }) =>
    api<AlertChannel>(`/alert-channels/${encodeURIComponent(id)}`, { method: "PATCH", body: patch }),
  );

export const useDeleteChannel = () => useChannelMutation((id: string) => api<void>(`/alert-channels/${encodeURIComponent(id)}`, { method: "DELETE" }));

export const useTestChannel = () => useChannelMutation((id: string) => api<AlertTestQueued>(`/alert-channels/${encodeURIComponent(id)}/test`, { method: "POST" }));
