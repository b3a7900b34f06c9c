import type { Ctx } from "../context";
import { eq } from "drizzle-orm";
import { setTimeout as sleep } from "node:timers/promises";
import { operators } from "../db/schema";
import { signInsPerClient } from "./checks-per-client";
import { GateFullError } from "./concurrency-gate";
import { clearSignInAttempts, countPasswordAttempt, normalizeSignInEmail } from "./count-sign-in-attempt";
import { decoyHash, passwordChecks, verifyPassword } from "./password";
import { toOperator, type Operator } from "./schemas";
import { checkSecondFactor } from "./second-factor-step";

export type SignInResult =
  | { ok: true; operator: Operator }
  | { ok: false; reason: "invalid" }
  /** The password was right and the operator has a second factor: ask for its code, then try again with all three. */
  | { ok: false; reason: "code_needed" }
  | { ok: false; reason: "invalid_code" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

type SignInInput = { email: string; password: string; code?: string | undefined; address: string | null };

/**
 * Checks an email and password (countPasswordAttempt): refused outright only when this client
 * address is over its limits, or already has signInsPerClient sign-ins in progress (refused before
 * any database work, so a flood from one address is answered cheaply); past the email's own limit,
 * delayed before the password is checked, the right one included. The check waits for a slot of
 * passwordChecks — a full queue is answered "retry in a second", not with more CPU work — where
 * an operator's email may take the places kept for it and an unknown one may not.
 * An operator with a second factor is signed in only when a code comes with the right password
 * (checkSecondFactor): the password alone answers "code needed" and yields nothing, and each try,
 * with a code or without, is one more counted attempt. A success clears that email's count.
 */
export async function signInOperator({
  ctx,
  input,
}: {
  ctx: Ctx;
  /** `address` null: the client's address is unknown (no trusted proxy), so only the email-wide delay applies. */
  input: SignInInput;
}): Promise<SignInResult> {
  const client = input.address;
  if (client !== null && !signInsPerClient.enter(client)) return { ok: false, reason: "rate_limited", retryAfterSeconds: 1 };
  try {
    return await checkPassword(ctx, input);
  } finally {
    if (client !== null) signInsPerClient.leave(client);
  }
}

async function checkPassword(ctx: Ctx, input: SignInInput): Promise<SignInResult> {
  const { db } = ctx;
  const email = normalizeSignInEmail(input.email);
  const [row] = await db.select().from(operators).where(eq(operators.email, email)).limit(1);
  const lane = { reserved: row !== undefined };
  // A flood of made-up emails is refused here, before it is even counted.
  if (!passwordChecks.hasPlace(lane)) return { ok: false, reason: "rate_limited", retryAfterSeconds: 1 };
  const attempt = await countPasswordAttempt({ ctx, input: { email, address: input.address } });
  if (attempt.retryAfterSeconds !== null) return { ok: false, reason: "rate_limited", retryAfterSeconds: attempt.retryAfterSeconds };
  if (attempt.delayMs > 0) await sleep(attempt.delayMs);

  let valid: boolean;
  try {
    valid = await passwordChecks.run(async () => verifyPassword(input.password, row?.passwordHash ?? (await decoyHash())), lane);
  } catch (error) {
    if (error instanceof GateFullError) return { ok: false, reason: "rate_limited", retryAfterSeconds: 1 };
    throw error;
  }
  if (!row || !valid) return { ok: false, reason: "invalid" };
  const second = await checkSecondFactor(ctx, { operatorId: row.id, code: input.code });
  if (second !== "passed") return { ok: false, reason: second };
  await clearSignInAttempts({ ctx, email });
  return { ok: true, operator: toOperator(row) };
}
