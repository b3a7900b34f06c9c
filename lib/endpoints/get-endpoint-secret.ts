import { recordAuditEvent } from "../audit/record-audit-event";
import type { Ctx } from "../context";
import { findEndpointRow } from "./queries";
import { currentSecret } from "./secrets";

/** A person reading a secret (dashboard or portal) is audited; the SaaS's own code reading it is not. */
export async function getEndpointSecret({ ctx, id: ref }: { ctx: Ctx; id: string }) {
  const { id } = await findEndpointRow(ctx, ref);
  const key = await currentSecret(ctx, id);
  if (ctx.actor.type === "operator" || ctx.actor.type === "portal") {
    await recordAuditEvent(ctx, { action: "endpoint.secret_viewed", targetType: "endpoint", targetId: id });
  }
  return { key };
}
