import type { Ctx } from "../context";
import { operatorSessions } from "../db/schema";
import { newId } from "../ids";

/** Longer than any browser sends; what is kept is for telling sessions apart, not a record of the header. */
const USER_AGENT_MAX = 400;

/** A sign-in's row: made when Auth.js issues the session's JWT, whose `sid` names it. Expires with the cookie. */
export async function startSession({ ctx, input }: { ctx: Ctx; input: { operatorId: string; userAgent: string | null; address: string | null } }): Promise<string> {
  const id = newId("operatorSession");
  await ctx.db.insert(operatorSessions).values({
    id,
    operatorId: input.operatorId,
    userAgent: input.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    address: input.address?.slice(0, 100) ?? null,
    expiresAt: new Date(Date.now() + ctx.config.OPERATOR_SESSION_TTL),
  });
  return id;
}
