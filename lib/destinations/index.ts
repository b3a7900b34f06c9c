import type { Destination } from "./destination";
import { amqp, closeAmqpConnections } from "./amqp";
import { http } from "./http";
import { closeRedisConnections, redisStream } from "./redis-stream";

export type { Destination, Outgoing, Prepared, SendOptions, SendResult, Verdict } from "./destination";

/** Every kind of destination, by the name endpoints.destination stores: a new kind is its module and one line here. */
export const DESTINATIONS: readonly Destination<unknown, unknown>[] = [http, amqp, redisStream];

const byKind = new Map(DESTINATIONS.map((destination) => [destination.kind, destination]));

/** Every kind the engine delivers to, http first. */
export const DESTINATION_KINDS = DESTINATIONS.map((destination) => destination.kind) as [string, ...string[]];

/**
 * The kind nothing is sent to: its consumer reads its messages through a cursor (lib/polling, ADR
 * 0046). Not a destination: fan-out makes it no delivery, so the engine never claims one for it.
 */
export const POLLING_KIND = "polling";

/** The endpoints API's `kind`: every destination's, and polling. */
export const ENDPOINT_KINDS = [...DESTINATION_KINDS, POLLING_KIND] as [string, ...string[]];

/** Closes the queue kinds' pooled broker connections (a worker's stop: its attempts have drained). */
export function closeDestinations(): void {
  closeAmqpConnections();
  closeRedisConnections();
}

/** A kind by its name (undefined for one this release does not know). */
export const destinationOf = (kind: string): Destination<unknown, unknown> | undefined => byKind.get(kind);

/**
 * An endpoint's destination as an attempt needs it: its kind's module with the target parsed by
 * that module's schema, and where it goes (the log's `url`). Or, when this code cannot send there
 * (a kind it does not know — a newer release's, after a rollback — or a target its schema
 * refuses), why: its attempts then fail, logged and retried, and nothing is thrown at the claim.
 */
export type ResolvedTarget =
  | { destination: Destination<unknown, unknown>; target: unknown; where: string; problem?: undefined }
  | { destination?: undefined; where: string; problem: string };

export function resolveTarget(kind: string, stored: unknown): ResolvedTarget {
  const destination = byKind.get(kind);
  if (!destination) return { where: kind, problem: `the endpoint's destination kind "${kind}" is not one this release knows` };
  const parsed = destination.target.safeParse(stored);
  if (!parsed.success) return { where: kind, problem: `the endpoint's ${kind} target is not valid: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}` };
  return { destination, target: parsed.data, where: destination.describe(parsed.data) };
}
