import type { Endpoint } from "@/lib/endpoints/schemas";

// The API's shapes come from the schemas the server answers with (type-only: nothing of lib/ is bundled).
export type { Consumer } from "@/lib/consumers/schemas";
export type { Endpoint, EndpointStats } from "@/lib/endpoints/schemas";
export type EndpointState = Endpoint["state"];

/** Healthy, failing (a streak is running), circuit open (paused), or disabled by hand or by the system. */
export type EndpointHealth = "healthy" | "failing" | "circuit_open" | "disabled" | "auto_disabled";

export function endpointHealth(endpoint: Endpoint, now = Date.now()): EndpointHealth {
  if (endpoint.state !== "active") return endpoint.state;
  if (endpoint.circuit_open_until && new Date(endpoint.circuit_open_until).getTime() > now) return "circuit_open";
  if (endpoint.failing_since) return "failing";
  return "healthy";
}
