"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApi } from "../api-context";

import type { CreateEventTypeInput, EventType, EventTypeSchemaVersion, UpdateEventTypeInput } from "@/lib/event-types/schemas";

export type { CreateEventTypeInput, EventType, EventTypeSchemaVersion, UpdateEventTypeInput };

export const eventTypeKeys = {
  all: ["event-types"] as const,
  list: () => [...eventTypeKeys.all, "list"] as const,
  versions: (name: string) => [...eventTypeKeys.all, "versions", name] as const,
};

const path = (name: string, rest = "") => `/event-types/${encodeURIComponent(name)}${rest}`;

export function useEventTypes() {
  const call = useApi();
  return useQuery({ queryKey: eventTypeKeys.list(), queryFn: () => call("GET /event-types", "/event-types?limit=250") });
}

/** The schema's kept versions, newest first. */
export function useSchemaVersions(name: string) {
  const call = useApi();
  return useQuery({ queryKey: eventTypeKeys.versions(name), queryFn: () => call("GET /event-types/{name}/schemas", path(name, "/schemas?limit=100")) });
}

export function useCreateEventType() {
  const call = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateEventTypeInput) => call("POST /event-types", "/event-types", { body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: eventTypeKeys.all }),
  });
}

export function useUpdateEventType(name: string) {
  const call = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: UpdateEventTypeInput) => call("PATCH /event-types/{name}", path(name), { body: patch }),
    onSuccess: () => client.invalidateQueries({ queryKey: eventTypeKeys.all }),
  });
}

/** Where one version of a schema is downloaded from, as JSON and as TypeScript. */
export const schemaVersionPath = (name: string, version: number, typescript = false) => path(name, `/schemas/${version}${typescript ? "/typescript" : ""}`);
