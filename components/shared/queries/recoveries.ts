"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { ApiCall } from "../api";
import { useApi } from "../api-context";
import { ACTIVE_RECOVERY_STATES, type Recovery } from "../types";

import type { CreateRecoveryInput, RecoveryDryRun, RecoveryItem } from "@/lib/recoveries/schemas";

export type { RecoveryItem };
/**
 * The body as sent: z.input, since the server parses `since` and `until` from ISO strings into
 * Dates. `dry_run` is the hook's to set (useDryRun), not the form's.
 */
export type RecoverInput = Omit<z.input<typeof CreateRecoveryInput>, "dry_run">;
export type Target = { kind: "consumer" | "endpoint"; id: string };

export const recoveryKeys = {
  all: ["recoveries"] as const,
  list: (filters: Record<string, string>) => [...recoveryKeys.all, "list", filters] as const,
  detail: (id: string) => [...recoveryKeys.all, "detail", id] as const,
  items: (id: string, outcome: string) => [...recoveryKeys.all, "items", id, outcome] as const,
};

export const fetchRecoveries = (call: ApiCall, query: string) => call("GET /recoveries", `/recoveries?${query}`);
export const fetchItems = (call: ApiCall, id: string, query: string) => call("GET /recoveries/{id}/items", `/recoveries/${encodeURIComponent(id)}/items?${query}`);

const recoverRoute = (target: Target): "POST /consumers/{consumer}/recover" | "POST /endpoints/{id}/recover" =>
  target.kind === "consumer" ? "POST /consumers/{consumer}/recover" : "POST /endpoints/{id}/recover";
const recoverPath = (target: Target) => `/${target.kind === "consumer" ? "consumers" : "endpoints"}/${encodeURIComponent(target.id)}/recover`;

/** A recover route answers the run it started (202), or for a dry run what one would do (200). */
function dryRun(answer: Recovery | RecoveryDryRun): RecoveryDryRun {
  if (!("expected" in answer)) throw new Error("a dry run answered a started recovery");
  return answer;
}

function started(answer: Recovery | RecoveryDryRun): Recovery {
  if ("expected" in answer) throw new Error("a recovery answered a dry run");
  return answer;
}

export function useDryRun() {
  const call = useApi();
  return useMutation({
    mutationFn: async ({ target, input }: { target: Target; input: RecoverInput }) => dryRun(await call(recoverRoute(target), recoverPath(target), { body: { ...input, dry_run: true } })),
  });
}

export function useStartRecovery() {
  const call = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ target, input }: { target: Target; input: RecoverInput }) => started(await call(recoverRoute(target), recoverPath(target), { body: input })),
    onSuccess: () => client.invalidateQueries({ queryKey: recoveryKeys.all }),
  });
}

/** A run's state, polled while it can still move. */
export function useRecovery(id: string) {
  const call = useApi();
  return useQuery({
    queryKey: recoveryKeys.detail(id),
    queryFn: () => call("GET /recoveries/{id}", `/recoveries/${encodeURIComponent(id)}`),
    refetchInterval: (query) => (query.state.data && !ACTIVE_RECOVERY_STATES.includes(query.state.data.state) ? false : 1_500),
  });
}

export function useRecoveryAction(id: string) {
  const call = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: "pause" | "resume" | "cancel" | "retry-failed") => call(`POST /recoveries/{id}/${action}`, `/recoveries/${encodeURIComponent(id)}/${action}`, { body: {} }),
    onSettled: () => client.invalidateQueries({ queryKey: recoveryKeys.all }),
  });
}
