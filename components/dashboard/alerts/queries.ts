"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../shared/api";

import type { Alert, AlertChannel, CreateAlertChannelInput, UpdateAlertChannelInput } from "@/lib/alerts/schemas";

export type { Alert, AlertChannel, CreateAlertChannelInput };

export type AlertFilters = { kind?: string; endpoint_id?: string; since?: string };

export const alertKeys = {
  all: ["alerts"] as const,
  channels: () => [...alertKeys.all, "channels"] as const,
  log: (filters: AlertFilters) => [...alertKeys.all, "log", filters] as const,
};

export function useAlertChannels() {
  return useQuery({ queryKey: alertKeys.channels(), queryFn: () => api("GET /alert-channels", "/alert-channels?limit=250") });
}

export function useAlertLog(filters: AlertFilters, refetchInterval: number | false = 15_000) {
  return useInfiniteQuery({
    queryKey: alertKeys.log(filters),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: "50" });
      for (const [k, v] of Object.entries(filters)) if (v) params.set(k, v);
      if (pageParam) params.set("cursor", pageParam);
      return api("GET /alerts", `/alerts?${params}`);
    },
    getNextPageParam: (last) => last.next_cursor,
    refetchInterval,
  });
}

function useChannelMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.all }) });
}

export const useCreateChannel = () => useChannelMutation((input: CreateAlertChannelInput) => api("POST /alert-channels", "/alert-channels", { body: input }));

export const useUpdateChannel = () =>
  useChannelMutation(({ id, ...patch }: UpdateAlertChannelInput & { id: string }) =>
    api("PATCH /alert-channels/{id}", `/alert-channels/${encodeURIComponent(id)}`, { body: patch }),
  );

export const useDeleteChannel = () => useChannelMutation((id: string) => api("DELETE /alert-channels/{id}", `/alert-channels/${encodeURIComponent(id)}`));

export const useTestChannel = () => useChannelMutation((id: string) => api("POST /alert-channels/{id}/test", `/alert-channels/${encodeURIComponent(id)}/test`));
