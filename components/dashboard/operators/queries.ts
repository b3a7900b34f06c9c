"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../shared/api";

import type { CreateOperatorInput, Operator } from "@/lib/operators/schemas";

export type { Operator };

export const operatorKeys = { all: ["operators"] as const, list: () => [...operatorKeys.all, "list"] as const };

export function useOperators(enabled: boolean) {
  return useQuery({ queryKey: operatorKeys.list(), queryFn: () => api("GET /operators", "/operators?limit=250"), enabled });
}

export function useCreateOperator() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateOperatorInput) => api("POST /operators", "/operators", { body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: operatorKeys.all }),
  });
}

export function useDeleteOperator() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api("DELETE /operators/{id}", `/operators/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: operatorKeys.all }),
  });
}
