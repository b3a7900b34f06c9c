"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Page } from "../api";
import { useApi } from "../api-context";

export type EventType = {
  id: string;
  name: string;
  description: string;
  schema: Record<string, unknown> | null;
  example: unknown;
  created_at: string;
  updated_at: string;
};
export type CreateEventTypeInput = { name: string; description?: string; schema?: Record<string, unknown>; example?: unknown };

export const eventTypeKeys = { all: ["event-types"] as const, list: () => [...eventTypeKeys.all, "list"] as const };

export function useEventTypes() {
  const call = useApi();
  return useQuery({ queryKey: eventTypeKeys.list(), queryFn: () => call<Page<EventType>>("/event-types?limit=250") });
}

export function useCreateEventType() {
  const call = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateEventTypeInput) => call<EventType>("/event-types", { method: "POST", body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: eventTypeKeys.all }),
  });
}
