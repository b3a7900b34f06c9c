import { eq } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { operators } from "../db/schema";
import { NotFoundError } from "../errors";
import { normalizeSignInEmail } from "./count-sign-in-attempt";
import { keepAnotherAdmin } from "./last-admin";
import { toOperator } from "./schemas";

/**
 * Disables a login, or enables it again. Disabled, it signs in no way (password, emailed link,
 * single sign-on) and its sessions end at their next request — unlike a removal, which single
 * sign-on with OIDC_AUTO_CREATE would undo at the person's next sign-in. The last admin stays.
 */
export async function setOperatorDisabled({ ctx, input }: { ctx: Ctx; input: { email: string; disabled: boolean } }) {
  const email = normalizeSignInEmail(input.email);
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.db.select().from(operators).where(eq(operators.email, email)).limit(1).for("update");
    if (!row) throw new NotFoundError("operator", email);
    if ((row.disabledAt !== null) === input.disabled) return toOperator(row);
    if (input.disabled && row.role === "admin") await keepAnotherAdmin(tx, row.id);
    const [updated] = await tx.db.update(operators).set({ disabledAt: input.disabled ? new Date() : null }).where(eq(operators.id, row.id)).returning();
    await recordAuditEvent(tx, { action: input.disabled ? "operator.disabled" : "operator.enabled", targetType: "operator", targetId: row.id, data: { email } });
    return toOperator(updated!);
  });
}
