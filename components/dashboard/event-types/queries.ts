"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Page } from "../../shared/api";

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
  return useQuery({ queryKey: eventTypeKeys.list(), queryFn: () => api<Page<EventType>>("/event-types?limit=250") });
}

export function useCreateEventType() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateEventTypeInput) => api<EventType>("/event-types", { method: "POST", body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: eventTypeKeys.all }),
  });
}
