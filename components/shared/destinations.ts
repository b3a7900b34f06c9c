import type { Endpoint } from "./resources";

/**
 * The destination kinds the screens offer, http first (the API's `kind`; docs/destinations.md).
 * Broker kinds carry a `target` whose URL holds the credentials; polling has no target.
 */
export const ENDPOINT_KINDS = ["http", "amqp", "redis_stream", "polling"] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];
export type BrokerKind = "amqp" | "redis_stream";

/** The kind as the screens know it; null for one this release of the screens does not (a newer server's). */
export const knownKind = (kind: string): EndpointKind | null => ((ENDPOINT_KINDS as readonly string[]).includes(kind) ? (kind as EndpointKind) : null);

/** Whether an endpoint of this kind sends anything itself: a polling endpoint is read, so a rate, cap, order or circuit says nothing of it. */
export const sends = (kind: string) => kind !== "polling";

export const isBrokerKind = (kind: string): kind is BrokerKind => kind === "amqp" || kind === "redis_stream";

/** A broker endpoint's target as the API answers it: its URL's password masked, never the credentials. */
export type ShownTarget = { url: string; exchange?: string; routing_key?: string; stream?: string; max_len?: number | null };

export function shownTarget(endpoint: Endpoint): ShownTarget | null {
  if (!isBrokerKind(endpoint.kind) || !endpoint.target) return null;
  const t = endpoint.target;
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  return {
    url: text(t.url) ?? "",
    exchange: text(t.exchange),
    routing_key: text(t.routing_key),
    stream: text(t.stream),
    max_len: typeof t.max_len === "number" ? t.max_len : null,
  };
}

/**
 * Which broker an attempt went to, read from the URL its log row keeps (the kind's scheme): an
 * attempt names no kind of its own, and its endpoint may have changed kind since.
 */
export function brokerOfAttempt(url: string | null | undefined): BrokerKind | null {
  const scheme = url?.slice(0, url.indexOf(":")) ?? "";
  if (scheme === "amqp" || scheme === "amqps") return "amqp";
  if (scheme === "redis" || scheme === "rediss") return "redis_stream";
  return null;
}
