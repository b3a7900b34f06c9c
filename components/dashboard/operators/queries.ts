"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Page } from "../../shared/api";

import type { CreateOperatorInput, Operator } from "@/lib/operators/schemas";

export type { Operator };

export const operatorKeys = { all: ["operators"] as const, list: () => [...operatorKeys.all, "list"] as const };

export function useOperators(enabled: boolean) {
  return useQuery({ queryKey: operatorKeys.list(), queryFn: () => api<Page<Operator>>("/operators?limit=250"), enabled });
}

export function useCreateOperator() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateOperatorInput) => api<Operator>("/operators", { method: "POST", body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: operatorKeys.all }),
  });
}

export function useDeleteOperator() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/operators/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: operatorKeys.all }),
  });
}
