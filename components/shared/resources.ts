/** The API's shapes the dashboard and the portal read (see API.md); the server is the source of truth. */
export type Consumer = { id: string; uid: string; name: string; metadata: Record<string, unknown>; alert_emails: string[]; created_at: string };

export type EndpointState = "active" | "disabled" | "auto_disabled";

export type Endpoint = {
  id: string;
  consumer_id: string;
  url: string;
  description: string;
  event_types: string[] | null;
  headers: Record<string, string>;
  max_concurrency: number;
  rate_limit_per_second: number | null;
  state: EndpointState;
  disabled_reason: string | null;
  failing_since: string | null;
  consecutive_failures: number;
  circuit_open_until: string | null;
  created_at: string;
  updated_at: string;
};

export type EndpointStats = {
  since: string;
  attempts: number;
  succeeded: number;
  failed: number;
  success_rate: number | null;
  p50_ms: number | null;
  p99_ms: number | null;
};

/** Healthy, failing (a streak is running), circuit open (paused), or disabled by hand or by the system. */
export type EndpointHealth = "healthy" | "failing" | "circuit_open" | "disabled" | "auto_disabled";

export function endpointHealth(endpoint: Endpoint, now = Date.now()): EndpointHealth {
  if (endpoint.state !== "active") return endpoint.state;
  if (endpoint.circuit_open_until && new Date(endpoint.circuit_open_until).getTime() > now) return "circuit_open";
  if (endpoint.failing_since) return "failing";
  return "healthy";
}
