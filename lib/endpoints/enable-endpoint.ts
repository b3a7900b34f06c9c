import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, maySeeSecrets, type Ctx } from "../context";
import { findEndpointRow } from "./queries";
import { toEndpoint } from "./schemas";
import { setEndpointState } from "./set-endpoint-state";

export async function enableEndpoint({ ctx, id: ref }: { ctx: Ctx; id: string }) {
  const { id } = await findEndpointRow(ctx, ref);
  const row = await inTransaction(ctx, async (tx) => {
    await recordAuditEvent(tx, { action: "endpoint.enabled", targetType: "endpoint", targetId: id });
    return setEndpointState({ ctx: tx, id, change: { state: "active" } });
  });
  return toEndpoint(row, ctx.config.ENDPOINT_MAX_CONCURRENCY, maySeeSecrets(ctx));
}
