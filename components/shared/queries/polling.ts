"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApi } from "../api-context";
import type { ApiInit } from "../api";
import { endpointKeys } from "./endpoints";

/**
 * A polling endpoint's state, as GET /endpoints/{id}/poll-status answers it: when it was last
 * polled, the consumer's committed position (null: nothing read yet), how far behind that is, and
 * its tokens (never their values).
 */
export type PollStatus = {
  last_polled_at: string | null;
  position: { message_id: string; created_at: string } | null;
  lag_messages: number;
  /** More messages were waiting than were counted: `lag_messages` is at least this. */
  lag_capped: boolean;
  lag_seconds: number | null;
  tokens: { id: string; created_at: string; last_used_at: string | null }[];
};

/** POST /endpoints/{id}/poll-tokens: a token, in full this once. */
export type PollToken = { token: string };

// The polling routes come with the polling endpoints themselves (issue 37's other half): until
// app/api/v1/routes.ts lists them, the client cannot type their answers from it, so these two
// calls are typed here against the contract (/work/shared/API.md, "Destinations").
type UntypedCall = (route: string, path: string, init?: ApiInit) => Promise<unknown>;

const path = (id: string, rest: string) => `/endpoints/${encodeURIComponent(id)}${rest}`;
const pollKeys = { status: (id: string) => [...endpointKeys.all, "poll-status", id] as const };

/** Read every few seconds: a poll moves the position while the page is open. */
export function usePollStatus(id: string) {
  const call = useApi() as unknown as UntypedCall;
  return useQuery({
    queryKey: pollKeys.status(id),
    queryFn: () => call("GET /endpoints/{id}/poll-status", path(id, "/poll-status")) as Promise<PollStatus>,
    refetchInterval: 10_000,
  });
}

export function useCreatePollToken(id: string) {
  const call = useApi() as unknown as UntypedCall;
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call("POST /endpoints/{id}/poll-tokens", path(id, "/poll-tokens"), { body: {} }) as Promise<PollToken>,
    onSuccess: () => client.invalidateQueries({ queryKey: pollKeys.status(id) }),
  });
}
