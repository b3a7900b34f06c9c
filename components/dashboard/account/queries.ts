"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../shared/api";

import type { OperatorSession } from "@/lib/operator-sessions/schemas";

export type { OperatorSession };

export const accountKeys = {
  all: ["account"] as const,
  sessions: () => [...accountKeys.all, "sessions"] as const,
  twoFactor: () => [...accountKeys.all, "two-factor"] as const,
  operatorSessions: (id: string) => ["operators", id, "sessions"] as const,
  policy: () => ["two-factor-policy"] as const,
};

export function useOwnSessions() {
  return useQuery({ queryKey: accountKeys.sessions(), queryFn: () => api("GET /sessions", "/sessions") });
}

export function useEndOwnSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api("DELETE /sessions/{id}", `/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}

export function useEndOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api("POST /sessions/end-others", "/sessions/end-others"),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}

export function useTwoFactor() {
  return useQuery({ queryKey: accountKeys.twoFactor(), queryFn: () => api("GET /two-factor", "/two-factor") });
}

export function useStartEnrollment() {
  return useMutation({ mutationFn: () => api("POST /two-factor/enrollment", "/two-factor/enrollment") });
}

export function useConfirmEnrollment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api("POST /two-factor/enrollment/confirm", "/two-factor/enrollment/confirm", { body: { code } }),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.twoFactor() }),
  });
}

export function useOperatorSessions(id: string, enabled: boolean) {
  return useQuery({ queryKey: accountKeys.operatorSessions(id), queryFn: () => api("GET /operators/{id}/sessions", `/operators/${encodeURIComponent(id)}/sessions`), enabled });
}

export function useEndOperatorSessions(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api("DELETE /operators/{id}/sessions", `/operators/${encodeURIComponent(id)}/sessions`),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.operatorSessions(id) }),
  });
}

export function useResetTwoFactor() {
  return useMutation({ mutationFn: (id: string) => api("DELETE /operators/{id}/two-factor", `/operators/${encodeURIComponent(id)}/two-factor`) });
}

export function useTwoFactorPolicy() {
  return useQuery({ queryKey: accountKeys.policy(), queryFn: () => api("GET /two-factor/policy", "/two-factor/policy") });
}

export function useUpdateTwoFactorPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) => api("PUT /two-factor/policy", "/two-factor/policy", { body: { required } }),
    onSuccess: (policy) => client.setQueryData(accountKeys.policy(), policy),
  });
}
