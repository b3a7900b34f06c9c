import { and, count, eq, gte, lt, sql } from "drizzle-orm";
import { getConfig } from "../config";
import type { Executor } from "../db/client";
import { loginFailures, operators } from "../db/schema";
import { decoyHash, verifyPassword } from "./password";
import { toOperator, type Operator } from "./schemas";

export type SignInResult =
  | { ok: true; operator: Operator }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/**
 * Checks an email and password, rate-limited per email and per client address (when the address
 * can be trusted: TRUST_PROXY; one shared bucket would let anyone lock everyone out). The attempt is
 * counted before the password is checked, so parallel guesses cannot all slip under the limit,
 * and a locked email is refused even with the right password. A success clears that email's count.
 */
export async function signInOperator(
  db: Executor,
  /** `address` null: the client's address is unknown (no trusted proxy), so only the per-email limit applies. */
  input: { email: string; password: string; address: string | null },
): Promise<SignInResult> {
  const config = getConfig();
  const email = input.email.trim().toLowerCase().slice(0, 320);
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
  if (over.length > 0) {
    // Free again once the oldest counted failure leaves the window.
    const freeAt = Math.max(...over.map((oldest) => new Date(oldest).getTime() + config.LOGIN_FAILURE_WINDOW));
    return { ok: false, reason: "rate_limited", retryAfterSeconds: Math.max(1, Math.ceil((freeAt - Date.now()) / 1000)) };
  }

  const [row] = await db.select().from(operators).where(eq(operators.email, email)).limit(1);
  const valid = await verifyPassword(input.password, row?.passwordHash ?? (await decoyHash()));
  if (!row || !valid) return { ok: false, reason: "invalid" };
  await db.delete(loginFailures).where(eq(loginFailures.email, email));
  return { ok: true, operator: toOperator(row) };
}
