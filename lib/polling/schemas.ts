import { z } from "zod";

/**
 * GET /endpoints/{id}/poll's query: where to start (the previous page's `cursor`; none or empty —
 * `?cursor=&limit=`, as the contract writes it — the endpoint's start) and how many at most.
 */
export const PollQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(250).default(50),
});
export type PollQuery = z.infer<typeof PollQuery>;

/** One polled message: what a push would have sent, and the Standard Webhooks headers it would have carried. */
export const PolledMessageOut = z.object({
  id: z.string(),
  event_type: z.string(),
  /** The message's payload, parsed. */
  payload: z.unknown(),
  /** The payload's JSON exactly as stored: the body `headers` sign, what a verifier is given (re-serialising `payload` in another language may not give these bytes back). */
  body: z.string(),
  created_at: z.string(),
  /** `webhook-id`, `webhook-timestamp`, `webhook-signature`: signed with the endpoint's active secrets, as an HTTP delivery is. */
  headers: z.record(z.string(), z.string()),
});
export type PolledMessageOut = z.infer<typeof PolledMessageOut>;

/** A page of a polling endpoint's messages, oldest first; `cursor` starts the next; `done`: nothing more was there. */
export const PollPage = z.object({
  data: z.array(PolledMessageOut),
  cursor: z.string(),
  done: z.boolean(),
});
export type PollPage = z.infer<typeof PollPage>;

/** POST /endpoints/{id}/poll-tokens: the token, shown this once. */
export const CreatedPollToken = z.object({ id: z.string(), token: z.string(), created_at: z.string() });
export type CreatedPollToken = z.infer<typeof CreatedPollToken>;

/** GET /endpoints/{id}/poll-status: where the endpoint's readers stand. */
export const PollStatus = z.object({
  /** The last poll, by any token and cursor; null: never polled. */
  last_polled_at: z.string().nullable(),
  /** The committed position: the last message a poll gave past it; null: none yet. */
  position: z.object({ message_id: z.string(), created_at: z.string() }).nullable(),
  /** Messages after the position its event types and channels take (before its payload filter), counted up to 10,000 (`lag_capped`). */
  lag_messages: z.number(),
  lag_capped: z.boolean(),
  /** The age of the oldest of those: how far behind its readers are; null when none is waiting. */
  lag_seconds: z.number().nullable(),
  tokens: z.array(z.object({ id: z.string(), created_at: z.string(), last_used_at: z.string().nullable() })),
});
export type PollStatus = z.infer<typeof PollStatus>;
