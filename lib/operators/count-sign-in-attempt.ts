import type { Ctx } from "../context";
import { and, count, eq, gte, lt, or, sql } from "drizzle-orm";
import { loginFailures } from "../db/schema";

/** The email as sign-in compares it: trimmed, lower-case, bounded. */
export const normalizeSignInEmail = (email: string) => email.trim().toLowerCase().slice(0, 320);

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 30_000;

/**
 * How long a password attempt waits before its password is checked, when it is the `attempts`th
 * for its email in the window (itself included): nothing up to `limit`, then 250 ms, doubling with
 * each further attempt, at most 30 s. A wait instead of a lock: whoever guesses slows everyone
 * trying that email, but the owner still gets in.
 */
export function passwordDelayMs(attempts: number, limit: number): number {
  if (attempts <= limit) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (attempts - limit - 1));
}

type Kind = "password" | "link";
type Input = { email: string; address: string | null };

/**
 * Records one attempt, then counts the attempts of its kind in the window, in one statement (one
 * snapshot), per client address: those for its email from each address, and all from its own
 * address. Recorded before counting, so parallel tries cannot all slip under a limit.
 */
async function record(ctx: Ctx, kind: Kind, input: Input) {
  const { config, db } = ctx;
  const email = normalizeSignInEmail(input.email);
  const address = input.address?.slice(0, 100) ?? null;
  const windowStart = new Date(Date.now() - config.LOGIN_FAILURE_WINDOW);

  await db.insert(loginFailures).values({ email, address, kind });
  await db.delete(loginFailures).where(lt(loginFailures.createdAt, windowStart));
  const sameEmail = eq(loginFailures.email, email);
  const groups = await db
    .select({
      address: loginFailures.address,
      forEmail: sql<number>`count(*) filter (where ${sameEmail})`.mapWith(Number),
      forEmailOldest: sql<string | null>`min(${loginFailures.createdAt}) filter (where ${sameEmail})`,
      all: count(),
      oldest: sql<string>`min(${loginFailures.createdAt})`,
    })
    .from(loginFailures)
    .where(and(eq(loginFailures.kind, kind), gte(loginFailures.createdAt, windowStart), address === null ? sameEmail : or(sameEmail, eq(loginFailures.address, address))))
    .groupBy(loginFailures.address);
  const own = address === null ? undefined : groups.find((group) => group.address === address);
  const ofEmail = groups.filter((group) => group.forEmail > 0);
  const time = (at: string | null | undefined) => (at ? new Date(at).getTime() : null);
  return {
    byEmail: ofEmail.reduce((sum, group) => sum + group.forEmail, 0),
    emailOldest: ofEmail.length > 0 ? Math.min(...ofEmail.map((group) => time(group.forEmailOldest)!)) : null,
    // An address counts for at most the per-email limit: past it, its attempts are refused without
    // a check, so one locked-out attacker cannot lengthen the owner's delay on his own.
    byEmailCapped: ofEmail.reduce((sum, group) => sum + (group.address === null ? group.forEmail : Math.min(group.forEmail, config.LOGIN_MAX_FAILURES_PER_EMAIL)), 0),
    byPair: own?.forEmail ?? 0,
    pairOldest: time(own?.forEmailOldest),
    byAddress: own?.all ?? 0,
    addressOldest: time(own?.oldest),
  };
}

/** Seconds until the buckets over their limit are free again: once their oldest counted attempt leaves the window. Null when none is over. */
function retryAfter(oldestOver: (number | null)[], windowMs: number): number | null {
  const oldest = oldestOver.filter((at): at is number => at !== null);
  if (oldest.length === 0) return null;
  const freeAt = Math.max(...oldest) + windowMs;
  return Math.max(1, Math.ceil((freeAt - Date.now()) / 1000));
}

export type PasswordAttempt = { retryAfterSeconds: number } | { retryAfterSeconds: null; delayMs: number };

/**
 * Counts a password attempt before it is checked. Refused (retryAfterSeconds) only by limits that
 * bind one client address, when it can be trusted (TRUST_PROXY; one shared bucket would let anyone
 * lock everyone out): LOGIN_MAX_FAILURES_PER_EMAIL for this (address, email) pair — an attacker
 * locks only himself out of the email — and LOGIN_MAX_FAILURES_PER_ADDRESS across emails. For the
 * email as a whole (every address, and all there is when the address is unknown) there is no lock,
 * only a delay past the same per-email limit (passwordDelayMs). A success clears the email's count
 * (clearSignInAttempts).
 */
export async function countPasswordAttempt({ ctx, input }: { ctx: Ctx; input: Input }): Promise<PasswordAttempt> {
  const { config } = ctx;
  const counts = await record(ctx, "password", input);
  const retryAfterSeconds = retryAfter([
    counts.byPair > config.LOGIN_MAX_FAILURES_PER_EMAIL ? counts.pairOldest : null,
    counts.byAddress > config.LOGIN_MAX_FAILURES_PER_ADDRESS ? counts.addressOldest : null,
  ], config.LOGIN_FAILURE_WINDOW);
  if (retryAfterSeconds !== null) return { retryAfterSeconds };
  return { retryAfterSeconds: null, delayMs: passwordDelayMs(counts.byEmailCapped, config.LOGIN_MAX_FAILURES_PER_EMAIL) };
}

/**
 * Counts a request for a sign-in link, apart from passwords, so guessing passwords never stops the
 * link: LOGIN_MAX_FAILURES_PER_EMAIL per email (from any address: these limits keep an inbox from
 * being flooded with mail) and LOGIN_MAX_FAILURES_PER_ADDRESS per trusted address. Null when within
 * them; else when to retry.
 */
export async function countLinkRequest({ ctx, input }: { ctx: Ctx; input: Input }): Promise<number | null> {
  const { config } = ctx;
  const counts = await record(ctx, "link", input);
  return retryAfter([
    counts.byEmail > config.LOGIN_MAX_FAILURES_PER_EMAIL ? counts.emailOldest : null,
    counts.byAddress > config.LOGIN_MAX_FAILURES_PER_ADDRESS ? counts.addressOldest : null,
  ], config.LOGIN_FAILURE_WINDOW);
}

/**
 * After a sign-in succeeded (a password or a link): a typo now and then never adds up to a delay.
 * Link requests stay counted: signing in does not make more mail welcome.
 */
export async function clearSignInAttempts({ ctx, email }: { ctx: Ctx; email: string }): Promise<void> {
  const { db } = ctx;
  await db.delete(loginFailures).where(and(eq(loginFailures.email, normalizeSignInEmail(email)), eq(loginFailures.kind, "password")));
}
