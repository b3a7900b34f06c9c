import { eq } from "drizzle-orm";
import { setTimeout as sleep } from "node:timers/promises";
import type { Ctx } from "../context";
import { operators } from "../db/schema";
import { acceptCode, hasSecondFactor } from "../two-factor";
import { clearSignInAttempts, countPasswordAttempt } from "./count-sign-in-attempt";
import { toOperator, type Operator } from "./schemas";

/** After a first factor (a password, a link): "passed" when the operator has no second one or `code` is good for it. */
export async function checkSecondFactor(ctx: Ctx, input: { operatorId: string; code: string | undefined }): Promise<"passed" | "code_needed" | "invalid_code"> {
  if (!(await hasSecondFactor(ctx, input.operatorId))) return "passed";
  if (!input.code) return "code_needed";
  return (await acceptCode(ctx, { operatorId: input.operatorId, code: input.code, stage: "enabled" })) ? "passed" : "invalid_code";
}

export type SecondStepResult =
  | { ok: true; operator: Operator }
  | { ok: false; reason: "invalid_code" | "invalid" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/**
 * The code step after a sign-in link (lib/auth/link-second-step.ts): the link proved the mailbox,
 * this the factor. Counted with the email's password attempts — the same limits and delays hold
 * a guesser of codes as one of passwords — and cleared by a success.
 */
export async function signInSecondStep({ ctx, input }: { ctx: Ctx; input: { operatorId: string; code: string; address: string | null } }): Promise<SecondStepResult> {
  const [row] = await ctx.db.select().from(operators).where(eq(operators.id, input.operatorId)).limit(1);
  if (!row) return { ok: false, reason: "invalid" };
  const attempt = await countPasswordAttempt({ ctx, input: { email: row.email, address: input.address } });
  if (attempt.retryAfterSeconds !== null) return { ok: false, reason: "rate_limited", retryAfterSeconds: attempt.retryAfterSeconds };
  if (attempt.delayMs > 0) await sleep(attempt.delayMs);
  const second = await checkSecondFactor(ctx, { operatorId: row.id, code: input.code });
  if (second !== "passed") return { ok: false, reason: "invalid_code" };
  await clearSignInAttempts({ ctx, email: row.email });
  return { ok: true, operator: toOperator(row) };
}
