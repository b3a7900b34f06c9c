"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Page } from "../api";
import { useApi } from "../api-context";

import type { CreateEventTypeInput, EventType } from "@/lib/event-types/schemas";

export type { CreateEventTypeInput, EventType };

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
