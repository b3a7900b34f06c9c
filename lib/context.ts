import type { Executor } from "./db/client";
import type { OperatorRole } from "./db/schema/access";
import type { PortalCapability } from "./portal/capabilities";

/** Who is acting. A portal actor may only ever see its own consumer's rows. */
export type Actor =
  | { type: "api_key"; id: string }
  | { type: "operator"; id: string; role: OperatorRole }
  /** A customer's portal session: `id` is the session's, the rest come from the link that made it. */
  | { type: "portal"; id: string; consumerId: string; capabilities: readonly PortalCapability[] }
  | { type: "system" };

export type Ctx = { actor: Actor; db: Executor };

/** The consumer a query must be limited to, or null when the actor sees every consumer. */
export function consumerScope(ctx: Ctx): string | null {
  return ctx.actor.type === "portal" ? ctx.actor.consumerId : null;
}

/**
 * Who may read what signs or authenticates a customer's deliveries — signing secrets and the values
 * of an endpoint's custom headers (an `Authorization` the receiver wants): API keys, admins, and a
 * portal session whose link granted `view_secrets`. A viewer reads everything else: with a secret
 * anyone can forge webhooks to that customer.
 */
export function maySeeSecrets(ctx: Ctx): boolean {
  const { actor } = ctx;
  if (actor.type === "operator") return actor.role === "admin";
  if (actor.type === "portal") return actor.capabilities.includes("view_secrets");
  return true;
}
