/** Postgres SQLSTATEs the domain code turns into typed errors. */
function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  // drizzle wraps driver errors; the SQLSTATE sits on the cause.
  for (let i = 0; i < 3 && current && typeof current === "object"; i++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (sqlState(error) !== "23505") return false;
  if (!constraint) return true;
  let current: unknown = error;
  for (let i = 0; i < 3 && current && typeof current === "object"; i++) {
    if ((current as { constraint_name?: string }).constraint_name === constraint) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** A row the statement referred to is gone (or a referenced one was deleted meanwhile). */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlState(error) === "23503";
}

/** A lock not granted within lock_timeout (or at once, NOWAIT). */
export function isLockNotAvailable(error: unknown): boolean {
  return sqlState(error) === "55P03";
}

/** A deadlock or serialization failure: the transaction was rolled back and may simply be run again. */
export function isRetryableConflict(error: unknown): boolean {
  const state = sqlState(error);
  return state === "40P01" || state === "40001";
}

/** The database is down, restarting or unreachable: the request may be retried. */
export function isConnectionError(error: unknown): boolean {
  const state = sqlState(error);
  if (state && (state.startsWith("08") || state === "57P01" || state === "57P02" || state === "57P03")) return true;
  let current: unknown = error;
  for (let i = 0; i < 3 && current && typeof current === "object"; i++) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === "string" &&
      ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT", "ENOTFOUND", "EAI_AGAIN"].includes(code)
    ) return true;
    // node-postgres (graphile-worker's driver) reports a dropped connection by message only.
    const message = (current as { message?: unknown }).message;
    if (typeof message === "string" && /^Connection terminated|not queryable|Connection ended/i.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
