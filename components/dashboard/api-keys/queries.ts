"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../shared/api";

import type { ApiKey, CreateApiKeyInput, CreatedApiKey } from "@/lib/api-keys/schemas";

export type { ApiKey, CreatedApiKey };

export const apiKeyKeys = { all: ["api-keys"] as const, list: () => [...apiKeyKeys.all, "list"] as const };

export function useApiKeys() {
  return useQuery({ queryKey: apiKeyKeys.list(), queryFn: () => api("GET /api-keys", "/api-keys?limit=250") });
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKeyInput) => api("POST /api-keys", "/api-keys", { body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api("DELETE /api-keys/{id}", `/api-keys/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
