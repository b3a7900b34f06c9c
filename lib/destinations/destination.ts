import type { z } from "zod";
import type { Config } from "../config";
import type { EgressPolicy, EgressResult } from "../webhooks/egress";

/** What every kind is given of the delivery it carries. */
export type Outgoing = {
  messageId: string;
  endpointId: string;
  /** The message's body as stored (JSON text): what is sent and what is signed. */
  payload: string;
  /** A test send (POST /endpoints/{id}/test): marked for the receiver, where the kind has a way to. */
  isTest: boolean;
};

/** A request ready to send, and what the attempt log keeps of it: its headers, secrets masked. */
export type Prepared<Request> = { request: Request; loggedHeaders: Record<string, string> };

/** What bounds a send: the operator's settings and egress rules; `isolationKey` (the endpoint) never shares connections with another. */
export type SendOptions = { config: Config; policy: EgressPolicy; isolationKey: string };

/**
 * What came back, in the attempt log's terms — the egress guard's result, with an error code of the
 * kind's own: a status code where the kind has one (null when nothing answered), an error code and
 * its cause, what was read of the answer, how long it took. `headers` are the answer's, for
 * classify; they are not logged.
 */
export type SendResult = Omit<EgressResult, "error"> & { error: string | null };

/**
 * What an attempt's result means. A failure is retried per the schedule; `retryAfterMs` is how
 * long the receiver asked to be left alone (the schedule honours it within its bounds); `error` is
 * the attempt log's code, null where the status code says it all.
 */
export type Verdict = { success: boolean; error: string | null; retryAfterMs: number | null };

/**
 * A kind of destination: where a delivery goes, and how. The claim returns each endpoint's kind and
 * its stored target; the attempt parses the target with `target`, then prepare → send → classify.
 * One module per kind in this folder, listed once in ./index.ts (docs/project-layout.md, "Adding a
 * destination kind"). Methods, not function-valued fields: a list of kinds holds each as
 * Destination<unknown, unknown>, and every target it is handed is the one its own schema parsed.
 */
export type Destination<Target, Request> = {
  /** Stored in endpoints.destination. */
  kind: string;
  /** What an endpoint of this kind stores (the claim's `target`). */
  target: z.ZodType<Target>;
  /**
   * A kind that delivers into a broker: what the endpoints API takes as its `target` (a broker
   * `url` with its credentials, and the kind's own fields; stored sealed, ./broker.ts, ADR 0045)
   * and the URL's schemes, in the clear and over TLS. None for http, whose target is the endpoint's
   * url, headers and svix_headers.
   */
  broker?: { input: z.ZodType<{ url: string }>; schemes: { plain: string; tls: string } };
  /** Where it goes, as the attempt log's `url` shows it: the URL, or the kind's own address for its target. */
  describe(target: Target): string;
  /** Builds the request, signed with the endpoint's active secrets. Pure: no I/O. */
  prepare(delivery: Outgoing, target: Target, secrets: string[]): Prepared<Request>;
  /** Sends it within the options' bounds. Total: a failure to send is a result with an error, not a throw. */
  send(request: Request, options: SendOptions): Promise<SendResult>;
  /** What the result means; `now` is when it came (a Retry-After may be a date). */
  classify(result: SendResult, now: number): Verdict;
};

/** Names the module's export as a destination, with its types checked where it is written. */
export function defineDestination<Target, Request>(destination: Destination<Target, Request>): Destination<Target, Request> {
  return destination;
}
