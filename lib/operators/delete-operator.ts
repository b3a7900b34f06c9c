import { and, eq, ne, sql } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { operators } from "../db/schema";
import { ConflictError, NotFoundError } from "../errors";

/** Removes a login. Nobody removes themselves, and the last admin stays, so the dashboard always has one. */
export async function deleteOperator({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  if (ctx.actor.type === "operator" && ctx.actor.id === id) {
    throw new ConflictError("cannot_remove_self", "You cannot remove your own login; ask another admin.");
  }
  await inTransaction(ctx, async (tx) => {
    // Serializes concurrent removals, so two admins removing each other cannot leave none.
    await tx.db.execute(sql`select pg_advisory_xact_lock(727003)`);
    const [row] = await tx.db.select({ role: operators.role, email: operators.email }).from(operators).where(eq(operators.id, id)).limit(1);
    if (!row) throw new NotFoundError("operator", id);
    if (row.role === "admin") {
      const [other] = await tx.db
        .select({ id: operators.id })
        .from(operators)
        .where(and(eq(operators.role, "admin"), ne(operators.id, id)))
        .limit(1);
      if (!other) throw new ConflictError("last_admin", "This is the last admin; make another admin first.");
    }
    await tx.db.delete(operators).where(eq(operators.id, id));
    await recordAuditEvent(tx, { action: "operator.deleted", targetType: "operator", targetId: id, data: { email: row.email, role: row.role } });
  });
}
