import { and, count, eq, gte, lt, sql } from "drizzle-orm";
import { getConfig } from "../config";
import type { Executor } from "../db/client";
import { loginFailures } from "../db/schema";

/** The email as sign-in compares it: trimmed, lower-case, bounded. */
export const normalizeSignInEmail = (email: string) => email.trim().toLowerCase().slice(0, 320);

/**
 * Counts one sign-in attempt — a password tried, or a sign-in link asked for — against the per-email
 * and per-address limits (the address only when it can be trusted: TRUST_PROXY; one shared bucket
 * would let anyone lock everyone out), before anything is checked, so parallel tries cannot all
 * slip under the limit. Null when within them; else when to retry. A success clears the email's count
 * (clearSignInAttempts).
 */
export async function countSignInAttempt(db: Executor, input: { email: string; address: string | null }): Promise<number | null> {
  const config = getConfig();
  const email = normalizeSignInEmail(input.email);
  const address = input.address?.slice(0, 100) ?? null;
  const windowStart = new Date(Date.now() - config.LOGIN_FAILURE_WINDOW);

  await db.insert(loginFailures).values({ email, address });
  await db.delete(loginFailures).where(lt(loginFailures.createdAt, windowStart));
  const [byEmail] = await db
    .select({ n: count(), oldest: sql<string>`min(${loginFailures.createdAt})` })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, email), gte(loginFailures.createdAt, windowStart)));
  const [byAddress] = address
    ? await db
        .select({ n: count(), oldest: sql<string>`min(${loginFailures.createdAt})` })
        .from(loginFailures)
        .where(and(eq(loginFailures.address, address), gte(loginFailures.createdAt, windowStart)))
    : [];
  const over = [
    byEmail && byEmail.n > config.LOGIN_MAX_FAILURES_PER_EMAIL ? byEmail.oldest : null,
    byAddress && byAddress.n > config.LOGIN_MAX_FAILURES_PER_ADDRESS ? byAddress.oldest : null,
  ].filter((oldest): oldest is string => oldest !== null);
  if (over.length === 0) return null;
  // Free again once the oldest counted attempt leaves the window.
  const freeAt = Math.max(...over.map((oldest) => new Date(oldest).getTime() + config.LOGIN_FAILURE_WINDOW));
  return Math.max(1, Math.ceil((freeAt - Date.now()) / 1000));
}

/** After a sign-in succeeded: a typo now and then never adds up to a lock-out. */
export async function clearSignInAttempts(db: Executor, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.email, normalizeSignInEmail(email)));
}
