/**
 * The retry policy (docs/delivery.md): schedule[n] is the delay before scheduled attempt n+1, counted from the
 * previous attempt. No jitter: the schedule's gaps are already minutes to hours apart, and exact
 * times are what operators and customers read in the log.
 */
export function delayBeforeAttempt(schedule: number[], scheduledAttemptsDone: number): number | null {
  return scheduledAttemptsDone < schedule.length ? schedule[scheduledAttemptsDone]! : null;
}

/** After a failed scheduled attempt: when the next one is due, or null when the schedule is used up. */
export function nextAttemptAfterFailure(schedule: number[], scheduledAttemptsDone: number, now: number): number | null {
  const delay = delayBeforeAttempt(schedule, scheduledAttemptsDone);
  return delay === null ? null : now + delay;
}

/**
 * Retry-After on a 429 or 503: wait at least that long, but never more than twice the scheduled
 * delay and never past the schedule's end.
 */
export function applyRetryAfter(scheduledAt: number, retryAfterMs: number | null, now: number, scheduleEnd: number): number {
  if (retryAfterMs === null || retryAfterMs <= 0) return scheduledAt;
  const delay = scheduledAt - now;
  const wanted = now + Math.min(retryAfterMs, 2 * Math.max(delay, 0));
  return Math.min(Math.max(scheduledAt, wanted), Math.max(scheduledAt, scheduleEnd));
}

/** Parses Retry-After (seconds or an HTTP date) into milliseconds from now. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
