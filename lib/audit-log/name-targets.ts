import { inArray } from "drizzle-orm";
import { channelRefs } from "../alerts/queries";
import { apiKeyNames } from "../api-keys/queries";
import { consumerRefs } from "../consumers/queries";
import type { Ctx } from "../context";
import { recoveries } from "../db/schema";
import { endpointRefs } from "../endpoints/queries";
import { operatorEmails } from "../operators/queries";

// The audit log's read side sits here, above the domains whose rows it names, while recording
// (lib/audit/record-audit-event.ts) stays below every domain that writes an event: the names are
// read when the log is, so a target renamed since shows its name of today and one deleted shows
// as deleted — what names stored with each event could not say, and a registry of namers would
// only hide the same imports behind a start-up step.
export type RecordedTarget = { type: string; id: string; data: Record<string, unknown> };
export type TargetName = { type: string; id: string; name: string | null; detail: string | null; deleted: boolean };

// The kinds of target looked up by id; a message is not (it has no name, and its table is the largest).
const LOOKED_UP = new Set(["consumer", "endpoint", "operator", "api_key", "alert_channel", "recovery"]);

const consumerOf = (data: Record<string, unknown>) => (typeof data.consumer_id === "string" ? data.consumer_id : null);

/**
 * What a person knows each target of a page by, read in one lookup per kind by primary key (a
 * recovery's endpoint and consumer in a second round): a consumer's name and uid, an endpoint's
 * description and URL, an operator's email, an API key's name and prefix, an alert channel's name
 * and kind, a recovery's endpoint or consumer, a portal session's consumer (as its event recorded
 * it). A target that was looked up and is gone is `deleted`.
 */
export async function nameTargets(ctx: Ctx, targets: RecordedTarget[]): Promise<(target: RecordedTarget) => TargetName> {
  const ids = (type: string) => targets.filter((t) => t.type === type).map((t) => t.id);
  const runs = ids("recovery").length
    ? await ctx.db.select({ id: recoveries.id, consumerId: recoveries.consumerId, endpointId: recoveries.endpointId }).from(recoveries).where(inArray(recoveries.id, [...new Set(ids("recovery"))]))
    : [];
  const [consumers, endpoints, operators, keys, channels] = await Promise.all([
    consumerRefs(ctx, [...ids("consumer"), ...runs.map((r) => r.consumerId), ...targets.filter((t) => t.type === "portal_session").map((t) => consumerOf(t.data))]),
    endpointRefs(ctx, [...ids("endpoint"), ...runs.map((r) => r.endpointId)]),
    operatorEmails(ctx, ids("operator")),
    apiKeyNames(ctx, ids("api_key")),
    channelRefs(ctx, ids("alert_channel")),
  ]);
  const runsById = new Map(runs.map((r) => [r.id, r]));
  const endpointName = (id: string | null) => {
    const endpoint = id ? endpoints.get(id) : undefined;
    return endpoint ? { name: endpoint.description || endpoint.url, detail: endpoint.url } : undefined;
  };

  const describe = ({ type, id, data }: RecordedTarget): { name: string; detail: string | null } | undefined => {
    switch (type) {
      case "consumer": {
        const consumer = consumers.get(id);
        return consumer && { name: consumer.name, detail: consumer.uid };
      }
      case "endpoint":
        return endpointName(id);
      case "operator": {
        const operator = operators.get(id);
        return operator && { name: operator.email, detail: null };
      }
      case "api_key": {
        const key = keys.get(id);
        return key && { name: key.name, detail: key.prefix };
      }
      case "alert_channel": {
        const channel = channels.get(id);
        return channel && { name: channel.name, detail: channel.kind };
      }
      case "recovery": {
        const run = runsById.get(id);
        if (!run) return undefined;
        const consumer = consumers.get(run.consumerId);
        // A one-endpoint run by its endpoint, a consumer-wide one by its consumer.
        if (run.endpointId) return { name: endpointName(run.endpointId)?.name ?? run.endpointId, detail: consumer?.name ?? null };
        return { name: consumer?.name ?? run.consumerId, detail: null };
      }
      case "portal_session": {
        const owner = consumerOf(data);
        const consumer = owner ? consumers.get(owner) : undefined;
        return consumer && { name: consumer.name, detail: consumer.uid };
      }
      default:
        return undefined;
    }
  };

  return (target) => {
    const named = describe(target);
    if (named) return { type: target.type, id: target.id, ...named, deleted: false };
    return { type: target.type, id: target.id, name: null, detail: null, deleted: LOOKED_UP.has(target.type) };
  };
}
