import { eq } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { operators } from "../db/schema";
import { keepAnotherAdmin } from "./last-admin";
import { ConflictError, NotFoundError } from "../errors";

/** Removes a login. Nobody removes themselves, and the last admin stays, so the dashboard always has one. */
export async function deleteOperator({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  if (ctx.actor.type === "operator" && ctx.actor.id === id) {
    throw new ConflictError("cannot_remove_self", "You cannot remove your own login; ask another admin.");
  }
  await inTransaction(ctx, async (tx) => {
    const [row] = await tx.db.select({ role: operators.role, email: operators.email }).from(operators).where(eq(operators.id, id)).limit(1);
    if (!row) throw new NotFoundError("operator", id);
    if (row.role === "admin") await keepAnotherAdmin(tx, id);
    await tx.db.delete(operators).where(eq(operators.id, id));
    await recordAuditEvent(tx, { action: "operator.deleted", targetType: "operator", targetId: id, data: { email: row.email, role: row.role } });
  });
}
