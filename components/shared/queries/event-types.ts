"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApi } from "../api-context";

import type { CreateEventTypeInput, EventType } from "@/lib/event-types/schemas";

export type { CreateEventTypeInput, EventType };

export const eventTypeKeys = { all: ["event-types"] as const, list: () => [...eventTypeKeys.all, "list"] as const };

export function useEventTypes() {
  const call = useApi();
  return useQuery({ queryKey: eventTypeKeys.list(), queryFn: () => call("GET /event-types", "/event-types?limit=250") });
}

export function useCreateEventType() {
  const call = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateEventTypeInput) => call("POST /event-types", "/event-types", { body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: eventTypeKeys.all }),
  });
}
