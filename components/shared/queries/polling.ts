"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApi } from "../api-context";
import type { Answer } from "../api";
import { endpointKeys } from "./endpoints";

const path = (id: string, rest: string) => `/endpoints/${encodeURIComponent(id)}${rest}`;
const pollKeys = { status: (id: string) => [...endpointKeys.all, "poll-status", id] as const };

/** Read every few seconds: a poll moves the position while the page is open. */
export function usePollStatus(id: string) {
  const call = useApi();
  return useQuery({
    queryKey: pollKeys.status(id),
    queryFn: () => call("GET /endpoints/{id}/poll-status", path(id, "/poll-status")),
    refetchInterval: 10_000,
  });
}

export function useCreatePollToken(id: string) {
  const call = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call("POST /endpoints/{id}/poll-tokens", path(id, "/poll-tokens"), { body: {} }),
    onSuccess: () => client.invalidateQueries({ queryKey: pollKeys.status(id) }),
  });
}

/** A polling endpoint's state, as GET /endpoints/{id}/poll-status answers it (typed by the route). */
export type PollStatus = Answer<"GET /endpoints/{id}/poll-status">;
