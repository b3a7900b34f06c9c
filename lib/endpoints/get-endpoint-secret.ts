import { insertAuditEvent } from "../audit/insert-audit-event";
import type { Ctx } from "../context";
import { findEndpointRow } from "./queries";
import { currentSecret } from "./secrets";

/** A person reading a secret (dashboard or portal) is audited; the SaaS's own code reading it is not. */
export async function getEndpointSecret({ ctx, id }: { ctx: Ctx; id: string }) {
  await findEndpointRow(ctx, id);
  const key = await currentSecret(ctx.db, id);
  if (ctx.actor.type === "operator" || ctx.actor.type === "portal") {
    await insertAuditEvent(ctx.db, { actor: ctx.actor, action: "endpoint.secret_viewed", targetType: "endpoint", targetId: id });
  }
  return { key };
}
