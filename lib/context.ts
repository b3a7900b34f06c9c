import type { Executor } from "./db/client";

/** Who is acting. A portal actor may only ever see its own consumer's rows. */
export type Actor =
  | { type: "api_key"; id: string }
  | { type: "operator"; id: string }
  | { type: "portal"; id: string; consumerId: string }
  | { type: "system" };

export type Ctx = { actor: Actor; db: Executor };

/** The consumer a query must be limited to, or null when the actor sees every consumer. */
export function consumerScope(ctx: Ctx): string | null {
  return ctx.actor.type === "portal" ? ctx.actor.consumerId : null;
}
