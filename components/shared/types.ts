/** Shapes of /api/v1 answers the shared parts render (API.md); both audiences see the same ones. */
export type Attempt = {
  id: string;
  delivery_id: string;
  message_id: string;
  endpoint_id: string;
  attempt_number: number;
  trigger: string;
  success: boolean;
  status_code: number | null;
  error: string | null;
  error_detail: string | null;
  response_body: string | null;
  duration_ms: number | null;
  request_headers: Record<string, string> | null;
  created_at: string;
};

export type RecoveryCounts = { expected: number; queued: number; succeeded: number; failed: number; skipped: number };

export type Recovery = {
  id: string;
  consumer_id: string;
  endpoint_id: string | null;
  state: "planned" | "canary" | "running" | "paused" | "completed" | "canceled";
  stop_reason: "canary_failed" | "failure_ratio" | null;
  scope: { since: string; until: string; event_types: string[] | null; statuses: string[]; include_never_attempted: boolean; retry_of?: string };
  options: { rate_per_second: number; canary: number; stop_if_failure_ratio: number };
  counts: RecoveryCounts;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
};

export const ACTIVE_RECOVERY_STATES: readonly Recovery["state"][] = ["planned", "canary", "running", "paused"];
