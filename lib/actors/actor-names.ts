import { apiKeyNames } from "../api-keys/queries";
import { consumerRefs } from "../consumers/queries";
import type { Ctx } from "../context";
import { operatorEmails } from "../operators/queries";
import type { ActorType } from "../db/schema/enums";

// Read by the audit log (lib/audit-log) and by the recoveries' reads (who started a run): a folder
// of its own, above the domains whose rows it reads, so naming an actor never depends on the audit
// log's read side (which names targets of every kind, alert channels among them).

/** Who did something, as recorded: a portal session's actor is known by its consumer. */
export type RecordedActor = { type: ActorType; id: string | null; consumerId?: string | null };
export type ActorName = { name: string | null; deleted: boolean };

const NONE: ActorName = { name: null, deleted: false };

/**
 * What a person knows each actor of a page by, read in one lookup per kind: an operator's email, an
 * API key's name, a portal session's consumer's name; the system has none. An operator or consumer
 * deleted since is `deleted` (an API key's row outlives its revocation). A portal session reading
 * is told nothing of the SaaS's own people and keys.
 */
export async function nameActors(ctx: Ctx, actors: RecordedActor[]): Promise<(actor: RecordedActor) => ActorName> {
  const insider = ctx.actor.type !== "portal";
  const ids = (type: RecordedActor["type"]) => actors.filter((a) => a.type === type).map((a) => a.id);
  const [operators, keys, consumers] = await Promise.all([
    insider ? operatorEmails(ctx, ids("operator")) : new Map<string, { email: string }>(),
    insider ? apiKeyNames(ctx, ids("api_key")) : new Map<string, { name: string }>(),
    consumerRefs(ctx, actors.filter((a) => a.type === "portal").map((a) => a.consumerId)),
  ]);
  return (actor) => {
    if (actor.type === "system" || !actor.id) return NONE;
    if (actor.type === "portal") {
      if (!actor.consumerId) return NONE;
      const consumer = consumers.get(actor.consumerId);
      return consumer ? { name: consumer.name, deleted: false } : { name: null, deleted: true };
    }
    if (!insider) return NONE;
    const name = actor.type === "operator" ? operators.get(actor.id)?.email : keys.get(actor.id)?.name;
    return name === undefined ? { name: null, deleted: true } : { name, deleted: false };
  };
}
