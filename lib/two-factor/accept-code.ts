import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Ctx } from "../context";
import { decrypt, decryptionKeys } from "../crypto/encryption";
import { operatorTwoFactor } from "../db/schema";
import { hashRecoveryCode } from "./recovery-codes";
import { twoFactorRow } from "./queries";
import { totpStep } from "./totp";

type Stage = "enrolling" | "enabled";

/**
 * Takes a code for the operator's factor in the given stage, once: an app's code is accepted only
 * for a time step later than the last one accepted (the same code, or an older one, replayed within
 * its window is refused — RFC 6238 §5.2), written in the same statement that checks it so two
 * requests racing with one code cannot both pass; a recovery code (enabled factors only) is removed
 * as it is accepted. Answers which kind was taken, or null.
 */
export async function acceptCode(ctx: Ctx, input: { operatorId: string; code: string; stage: Stage }): Promise<"totp" | "recovery" | null> {
  const row = await twoFactorRow(ctx, input.operatorId);
  if (!row || (input.stage === "enabled") !== (row.confirmedAt !== null)) return null;
  const code = input.code.trim();
  const stageIs = input.stage === "enabled" ? isNotNull(operatorTwoFactor.confirmedAt) : isNull(operatorTwoFactor.confirmedAt);
  const own = and(eq(operatorTwoFactor.operatorId, input.operatorId), stageIs);

  if (/^\d{6}$/.test(code.replace(/\s/g, ""))) {
    const step = totpStep(decrypt(row.secretCiphertext, decryptionKeys(ctx.config)), code.replace(/\s/g, ""));
    if (step === null) return null;
    const taken = await ctx.db
      .update(operatorTwoFactor)
      .set({ lastStep: step })
      .where(and(own, or(isNull(operatorTwoFactor.lastStep), lt(operatorTwoFactor.lastStep, step))))
      .returning({ id: operatorTwoFactor.operatorId });
    return taken.length > 0 ? "totp" : null;
  }
  if (input.stage !== "enabled" || code.length > 20) return null;
  const hash = hashRecoveryCode(code);
  const used = await ctx.db
    .update(operatorTwoFactor)
    .set({ recoveryCodeHashes: sql`array_remove(${operatorTwoFactor.recoveryCodeHashes}, ${hash})` })
    .where(and(own, sql`${hash} = any(${operatorTwoFactor.recoveryCodeHashes})`))
    .returning({ id: operatorTwoFactor.operatorId });
  return used.length > 0 ? "recovery" : null;
}
