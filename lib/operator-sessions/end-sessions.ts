import { and, eq, isNull, ne } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { operatorSessions, operators } from "../db/schema";
import { NotFoundError } from "../errors";
import { ownOperator } from "./own-operator";

const open = (operatorId: string) => and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.endedAt));

/** Sign-out: the session's row ends with its cookie (a copy of the cookie kept elsewhere stops working too). */
export async function endSignedOutSession(ctx: Ctx, sessionId: string): Promise<void> {
  await ctx.db.update(operatorSessions).set({ endedAt: new Date() }).where(and(eq(operatorSessions.id, sessionId), isNull(operatorSessions.endedAt)));
}

/** Ends one of the signed-in operator's own sessions ("this device" included: that is signing out); another's id is a 404. */
export async function endOwnSession({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  const me = ownOperator(ctx);
  const ended = await ctx.db
    .update(operatorSessions)
    .set({ endedAt: new Date() })
    .where(and(eq(operatorSessions.id, id), open(me.id)))
    .returning({ id: operatorSessions.id });
  if (ended.length === 0) throw new NotFoundError("session", id);
}

/** "Sign out everywhere else": every open session of the operator but the one asking. */
export async function endOtherSessions({ ctx }: { ctx: Ctx }): Promise<{ ended: number }> {
  const me = ownOperator(ctx);
  const ended = await ctx.db
    .update(operatorSessions)
    .set({ endedAt: new Date() })
    .where(and(open(me.id), ne(operatorSessions.id, me.sessionId)))
    .returning({ id: operatorSessions.id });
  return { ended: ended.length };
}

/** An admin ends every session of an operator (their own included, if they ask): audited. */
export async function endOperatorSessions({ ctx, operatorId }: { ctx: Ctx; operatorId: string }): Promise<{ ended: number }> {
  return inTransaction(ctx, async (tx) => {
    const [operator] = await tx.db.select({ email: operators.email }).from(operators).where(eq(operators.id, operatorId)).limit(1);
    if (!operator) throw new NotFoundError("operator", operatorId);
    const ended = await tx.db.update(operatorSessions).set({ endedAt: new Date() }).where(open(operatorId)).returning({ id: operatorSessions.id });
    await recordAuditEvent(tx, { action: "operator.sessions_ended", targetType: "operator", targetId: operatorId, data: { email: operator.email, ended: ended.length } });
    return { ended: ended.length };
  });
}
