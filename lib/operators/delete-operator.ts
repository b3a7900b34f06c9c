import { and, eq, ne, sql } from "drizzle-orm";
import { insertAuditEvent } from "../audit/insert-audit-event";
import type { Ctx } from "../context";
import { operators } from "../db/schema";
import { ConflictError, NotFoundError } from "../errors";

/** Removes a login. Nobody removes themselves, and the last admin stays, so the dashboard always has one. */
export async function deleteOperator({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  if (ctx.actor.type === "operator" && ctx.actor.id === id) {
    throw new ConflictError("cannot_remove_self", "You cannot remove your own login; ask another admin.");
  }
  await ctx.db.transaction(async (tx) => {
    // Serializes concurrent removals, so two admins removing each other cannot leave none.
    await tx.execute(sql`select pg_advisory_xact_lock(727003)`);
    const [row] = await tx.select({ role: operators.role, email: operators.email }).from(operators).where(eq(operators.id, id)).limit(1);
    if (!row) throw new NotFoundError("operator", id);
    if (row.role === "admin") {
      const [other] = await tx
        .select({ id: operators.id })
        .from(operators)
        .where(and(eq(operators.role, "admin"), ne(operators.id, id)))
        .limit(1);
      if (!other) throw new ConflictError("last_admin", "This is the last admin; make another admin first.");
    }
    await tx.delete(operators).where(eq(operators.id, id));
    await insertAuditEvent(tx, { actor: ctx.actor, action: "operator.deleted", targetType: "operator", targetId: id, data: { email: row.email, role: row.role } });
  });
}
