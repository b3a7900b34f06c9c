import type { Actor, Ctx } from "../context";
import { ForbiddenError } from "../errors";

/**
 * The operator a verb about "my own account" acts for: only a dashboard session has one. The route
 * refuses other credentials already (role "own"); this keeps the verb from ever guessing.
 */
export function ownOperator(ctx: Pick<Ctx, "actor">): Extract<Actor, { type: "operator" }> & { sessionId: string } {
  const { actor } = ctx;
  if (actor.type !== "operator" || !actor.sessionId) throw new ForbiddenError("Only a signed-in operator's dashboard session has sessions and a second factor of its own.");
  return { ...actor, sessionId: actor.sessionId };
}
