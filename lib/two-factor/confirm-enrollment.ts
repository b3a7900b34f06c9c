import { and, eq, isNull, sql } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { operatorTwoFactor } from "../db/schema";
import { ValidationError } from "../errors";
import { ownOperator } from "../operator-sessions/own-operator";
import { acceptCode } from "./accept-code";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery-codes";
import { ConfirmTwoFactorInput, type RecoveryCodes } from "./schemas";

const wrongCode = () => new ValidationError("The code does not match; check the app's clock and try the code it shows now.", [{ path: "code", message: "wrong code" }]);

/**
 * Confirms an enrollment with a code from the app — proof the secret reached it — and turns the
 * factor on: from now on sign-in asks for a code. Answers the ten recovery codes, once; only their
 * hashes are kept. Audited.
 */
export async function confirmEnrollment({ ctx, input }: { ctx: Ctx; input: ConfirmTwoFactorInput }): Promise<RecoveryCodes> {
  const me = ownOperator(ctx);
  const parsed = ConfirmTwoFactorInput.safeParse(input);
  if (!parsed.success) throw wrongCode();
  return inTransaction(ctx, async (tx) => {
    if ((await acceptCode(tx, { operatorId: me.id, code: parsed.data.code, stage: "enrolling" })) === null) throw wrongCode();
    const codes = newRecoveryCodes();
    await tx.db
      .update(operatorTwoFactor)
      .set({ confirmedAt: sql`now()`, recoveryCodeHashes: codes.map(hashRecoveryCode) })
      .where(and(eq(operatorTwoFactor.operatorId, me.id), isNull(operatorTwoFactor.confirmedAt)));
    await recordAuditEvent(tx, { action: "operator.two_factor_enabled", targetType: "operator", targetId: me.id });
    return { recovery_codes: codes };
  });
}
