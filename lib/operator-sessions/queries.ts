import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Ctx } from "../context";
import { operatorSessions, operators } from "../db/schema";
import { NotFoundError } from "../errors";
import { ownOperator } from "./own-operator";
import { toOperatorSession, type OperatorSessionList } from "./schemas";

async function openSessions(ctx: Ctx, operatorId: string, currentId: string | undefined): Promise<OperatorSessionList> {
  const rows = await ctx.db
    .select()
    .from(operatorSessions)
    .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.endedAt), gt(operatorSessions.expiresAt, new Date())))
    .orderBy(desc(operatorSessions.lastSeenAt), desc(operatorSessions.id));
  return { data: rows.map((row) => toOperatorSession(row, currentId)) };
}

/**
 * The signed-in operator's open sessions, most recently seen first, "this device" marked. Whole:
 * sessions end within OPERATOR_SESSION_TTL, so the list stays short.
 */
export function listOwnSessions(ctx: Ctx): Promise<OperatorSessionList> {
  const me = ownOperator(ctx);
  return openSessions(ctx, me.id, me.sessionId);
}

/** Another operator's open sessions, for an admin (the route says who may). */
export async function listOperatorSessions(ctx: Ctx, operatorId: string): Promise<OperatorSessionList> {
  const [operator] = await ctx.db.select({ id: operators.id }).from(operators).where(eq(operators.id, operatorId)).limit(1);
  if (!operator) throw new NotFoundError("operator", operatorId);
  return openSessions(ctx, operatorId, ctx.actor.type === "operator" ? ctx.actor.sessionId : undefined);
}
