import { insertAuditEvent } from "../audit/insert-audit-event";
import { getConfig } from "../config";
import { maySeeSecrets, type Ctx } from "../context";
import { transactionWithRetry } from "../db/retry";
import { findEndpointRow } from "./queries";
import { toEndpoint } from "./schemas";
import { setEndpointState } from "./set-endpoint-state";

export async function enableEndpoint({ ctx, id }: { ctx: Ctx; id: string }) {
  await findEndpointRow(ctx, id);
  const row = await transactionWithRetry(ctx.db, async (tx) => {
    await insertAuditEvent(tx, { actor: ctx.actor, action: "endpoint.enabled", targetType: "endpoint", targetId: id });
    return setEndpointState(tx, id, { state: "active" });
  });
  return toEndpoint(row, getConfig().ENDPOINT_MAX_CONCURRENCY, maySeeSecrets(ctx));
}
