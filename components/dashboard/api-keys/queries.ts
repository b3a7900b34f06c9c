"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Page } from "../../shared/api";

import type { ApiKey, CreateApiKeyInput, CreatedApiKey } from "@/lib/api-keys/schemas";

export type { ApiKey, CreatedApiKey };

export const apiKeyKeys = { all: ["api-keys"] as const, list: () => [...apiKeyKeys.all, "list"] as const };

export function useApiKeys() {
  return useQuery({ queryKey: apiKeyKeys.list(), queryFn: () => api<Page<ApiKey>>("/api-keys?limit=250") });
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKeyInput) => api<CreatedApiKey>("/api-keys", { method: "POST", body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api-keys/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
