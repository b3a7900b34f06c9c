import { eq } from "drizzle-orm";
import type { Executor } from "../db/client";
import { operators } from "../db/schema";
import { clearSignInAttempts, countSignInAttempt, normalizeSignInEmail } from "./count-sign-in-attempt";
import { decoyHash, verifyPassword } from "./password";
import { toOperator, type Operator } from "./schemas";

export type SignInResult =
  | { ok: true; operator: Operator }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/**
 * Checks an email and password, rate-limited per email and per client address (countSignInAttempt):
 * a locked email is refused even with the right password. A success clears that email's count.
 */
export async function signInOperator(
  db: Executor,
  /** `address` null: the client's address is unknown (no trusted proxy), so only the per-email limit applies. */
  input: { email: string; password: string; address: string | null },
): Promise<SignInResult> {
  const email = normalizeSignInEmail(input.email);
  const retryAfterSeconds = await countSignInAttempt(db, { email, address: input.address });
  if (retryAfterSeconds !== null) return { ok: false, reason: "rate_limited", retryAfterSeconds };

  const [row] = await db.select().from(operators).where(eq(operators.email, email)).limit(1);
  const valid = await verifyPassword(input.password, row?.passwordHash ?? (await decoyHash()));
  if (!row || !valid) return { ok: false, reason: "invalid" };
  await clearSignInAttempts(db, email);
  return { ok: true, operator: toOperator(row) };
}
