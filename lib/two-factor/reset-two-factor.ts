import { eq } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { operatorTwoFactor, operators } from "../db/schema";
import { NotFoundError } from "../errors";

/**
 * An admin removes an operator's second factor (a lost phone, no recovery codes left): they sign in
 * with their password alone again, and enroll anew — at once, where a factor is required of
 * everyone. Audited, whether or not there was one.
 */
export async function resetTwoFactor({ ctx, operatorId }: { ctx: Ctx; operatorId: string }): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const [operator] = await tx.db.select({ email: operators.email }).from(operators).where(eq(operators.id, operatorId)).limit(1);
    if (!operator) throw new NotFoundError("operator", operatorId);
    const removed = await tx.db.delete(operatorTwoFactor).where(eq(operatorTwoFactor.operatorId, operatorId)).returning({ confirmedAt: operatorTwoFactor.confirmedAt });
    await recordAuditEvent(tx, {
      action: "operator.two_factor_reset",
      targetType: "operator",
      targetId: operatorId,
      data: { email: operator.email, was_enabled: removed.some((row) => row.confirmedAt !== null) },
    });
  });
}
