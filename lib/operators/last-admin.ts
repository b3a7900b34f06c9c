import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Ctx } from "../context";
import { operators } from "../db/schema";
import { ConflictError } from "../errors";

/**
 * Inside the caller's transaction: refuses to take away the last admin who can sign in (removed
 * or disabled), so the dashboard always has one. Serializes such changes, so two admins removing
 * each other cannot leave none.
 */
export async function keepAnotherAdmin(tx: Ctx, id: string): Promise<void> {
  await tx.db.execute(sql`select pg_advisory_xact_lock(727003)`);
  const [other] = await tx.db
    .select({ id: operators.id })
    .from(operators)
    .where(and(eq(operators.role, "admin"), ne(operators.id, id), isNull(operators.disabledAt)))
    .limit(1);
  if (!other) throw new ConflictError("last_admin", "This is the last admin; make another admin first.");
}
