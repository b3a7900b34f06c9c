import type { Executor } from "./db/client";
import type { OperatorRole, PortalCapability } from "./db/schema/access";
import { ForbiddenError } from "./errors";

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
 * A viewer reads everything and changes nothing. lib/http/with-api-key.ts calls this for every
 * request that is not a GET, so a new route cannot forget it (tests/viewer-read-only.test.ts walks
 * every route file to prove it).
 */
export function requireWrite(ctx: Ctx): void {
  if (ctx.actor.type === "operator" && ctx.actor.role !== "admin") {
    throw new ForbiddenError("Your operator role is viewer: it can read, but not change anything.");
  }
}

/** Managing people is for API keys and admins only; a viewer may not even list them. */
export function requireAdmin(ctx: Ctx): void {
  const { actor } = ctx;
  if (actor.type === "api_key" || actor.type === "system" || (actor.type === "operator" && actor.role === "admin")) return;
  throw new ForbiddenError("Only an admin may manage operators.");
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

export function requireSecretAccess(ctx: Ctx): void {
  if (!maySeeSecrets(ctx)) {
    throw new ForbiddenError(
      ctx.actor.type === "portal" ? "This portal session lacks the `view_secrets` capability." : "Only an admin may read signing secrets.",
    );
  }
}
