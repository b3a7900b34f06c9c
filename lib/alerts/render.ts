import type { AlertFacts } from "./facts";
import type { AlertLogKind } from "./kinds";

/**
 * What every channel says about one alert, before each one's own format: a title, one sentence,
 * labelled facts, the folded-count note and a dashboard link. One wording for all five channels.
 */
export type AlertView = {
  title: string;
  summary: string;
  fields: { label: string; value: string }[];
  /** "3 other alerts about this endpoint were not sent since …", or null when nothing was folded in. */
  foldedNote: string | null;
  link: { label: string; url: string } | null;
  tone: "bad" | "good" | "info";
};

const TITLES: Record<AlertLogKind, { title: string; tone: AlertView["tone"] }> = {
  "endpoint.failing": { title: "Endpoint failing", tone: "bad" },
  "message.attempt.exhausted": { title: "Delivery failed for good", tone: "bad" },
  "endpoint.disabled": { title: "Endpoint disabled", tone: "bad" },
  "endpoint.recovered": { title: "Endpoint recovered", tone: "good" },
  "endpoint.enabled": { title: "Endpoint enabled", tone: "good" },
  "recovery.finished": { title: "Recovery finished", tone: "info" },
  "recovery.paused": { title: "Recovery paused itself", tone: "bad" },
  "alert.test": { title: "Test alert", tone: "info" },
};

const STOP_REASONS: Record<string, string> = {
  canary_failed: "too many of its first items (the canary) failed",
  failure_ratio: "too many of its last 50 attempts failed",
};

function recoveryCounts(data: AlertFacts["data"]): string {
  const n = (value: number | undefined) => (value ?? 0).toLocaleString("en-US");
  return `${n(data.expected)} expected: ${n(data.succeeded)} succeeded, ${n(data.failed)} failed, ${n(data.skipped)} skipped`;
}

function summaryOf(facts: AlertFacts): string {
  const url = facts.endpoint?.url ?? "an endpoint";
  const since = facts.data.failing_since ? ` since ${facts.data.failing_since}` : "";
  switch (facts.kind) {
    case "endpoint.failing":
      return `Deliveries to ${url} have been failing${since}.`;
    case "message.attempt.exhausted":
      return `A message used up its retry schedule at ${url}; it will not be retried automatically.`;
    case "endpoint.disabled":
      return `${url} was disabled automatically${facts.data.reason ? `: ${facts.data.reason}` : ""}. Its pending deliveries are canceled.`;
    case "endpoint.recovered":
      return `Deliveries to ${url} succeed again${facts.data.failing_since ? ` after failing since ${facts.data.failing_since}` : ""}.`;
    case "endpoint.enabled":
      return `${url} was enabled again; its failure streak is cleared.`;
    case "recovery.finished":
      return `The recovery ${facts.data.recovery_id ?? ""} for ${facts.consumer?.name ?? "a consumer"} finished: ${recoveryCounts(facts.data)}.`;
    case "recovery.paused":
      return (
        `The recovery ${facts.data.recovery_id ?? ""} for ${facts.consumer?.name ?? "a consumer"} paused itself: ` +
        `${STOP_REASONS[facts.data.stop_reason ?? ""] ?? "its stop rule tripped"}. Nothing more is sent until someone resumes or cancels it.`
      );
    case "alert.test":
      return `This is a test alert for the channel "${facts.channel_name ?? ""}". If you can read it, the channel works.`;
  }
}

function lastResult(data: AlertFacts["data"]): string | null {
  const status = data.last_status_code != null ? `HTTP ${data.last_status_code}` : null;
  const error = data.last_error ?? null;
  if (status && error) return `${status} (${error})`;
  return status ?? error;
}

export function foldedNote(folded: number, since: string | null): string | null {
  if (folded <= 0) return null;
  // Of any kind (the throttle holds per endpoint), suppressed or failed: the alert log has each.
  const what = folded === 1 ? "1 other alert about this endpoint was" : `${folded} other alerts about this endpoint were`;
  return `${what} not sent since ${since ?? "the previous one"}.`;
}

export function describeAlert(facts: AlertFacts, appUrl: string): AlertView {
  const { endpoint, consumer, data } = facts;
  const candidates: [string, string | null | undefined][] = [
    ["Endpoint", endpoint?.url],
    ["Description", endpoint?.description || null],
    ["Consumer", consumer ? `${consumer.name} (${consumer.uid})` : null],
    ["Reason", data.reason],
    ["Failing since", data.failing_since],
    ["Last result", lastResult(data)],
    ["Event type", data.event_type],
    ["Message", data.message_id],
    ["Delivery", data.delivery_id],
    ["Attempts", data.attempts != null ? String(data.attempts) : null],
    ["Recovery", data.recovery_id],
    ["Counts", data.recovery_id ? recoveryCounts(data) : null],
  ];
  const { title, tone } = TITLES[facts.kind];
  return {
    title,
    tone,
    summary: summaryOf(facts),
    fields: candidates.flatMap(([label, value]) => (value ? [{ label, value }] : [])),
    foldedNote: foldedNote(facts.folded, facts.folded_since),
    // The dashboard is for operators; a consumer's own email has no link it could open.
    link:
      facts.audience !== "operator"
        ? null
        : data.recovery_id
          ? { label: "Open in dashboard", url: `${appUrl}/recoveries/${encodeURIComponent(data.recovery_id)}` }
          : endpoint
            ? { label: "Open in dashboard", url: `${appUrl}/endpoints/${encodeURIComponent(endpoint.id)}` }
            : null,
  };
}
