import { insertAuditEvent } from "../audit/insert-audit-event";
import { eq } from "drizzle-orm";
import { getConfig } from "../config";
import { maySeeSecrets, type Ctx } from "../context";
import { endpoints } from "../db/schema";
import { transactionWithRetry } from "../db/retry";
import { NotFoundError } from "../errors";
import { assertEndpointUrl } from "./check-url";
import { findEndpointRow } from "./queries";
import { toEndpoint, type UpdateEndpointInput } from "./schemas";
import { setEndpointState } from "./set-endpoint-state";
import { checkPortalEndpointFields } from "./portal-limits";
import { unmaskHeaderValues } from "../webhooks/headers";

export async function updateEndpoint({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdateEndpointInput }) {
  const url = input.url !== undefined ? assertEndpointUrl(input.url) : undefined;
  const config = getConfig();
  checkPortalEndpointFields(ctx, input, config);
  const stored = await findEndpointRow(ctx, id);
  // A reader who saw the values masked sends them back masked: those keep what is stored.
  const headers = input.headers !== undefined ? unmaskHeaderValues(input.headers, stored.headers) : undefined;
  const row = await transactionWithRetry(ctx.db, async (tx) => {
    // A change of state first: it locks queue and delivery rows before the endpoint's own.
    if (input.disabled !== undefined) {
      await setEndpointState(tx, id, input.disabled ? { state: "disabled", reason: "disabled by request" } : { state: "active" });
    }
    const [updated] = await tx
      .update(endpoints)
      .set({
        ...(url !== undefined ? { url } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.event_types !== undefined ? { eventTypes: input.event_types?.length ? [...new Set(input.event_types)] : null } : {}),
        ...(headers !== undefined ? { headers } : {}),
        ...(input.max_concurrency !== undefined ? { maxConcurrency: input.max_concurrency } : {}),
        ...(input.rate_limit_per_second !== undefined ? { rateLimitPerSecond: input.rate_limit_per_second } : {}),
        updatedAt: new Date(),
      })
      .where(eq(endpoints.id, id))
      .returning();
    if (!updated) throw new NotFoundError("endpoint", id);
    await insertAuditEvent(tx, { actor: ctx.actor, action: "endpoint.updated", targetType: "endpoint", targetId: id, data: { fields: Object.keys(input) } });
    return updated;
  });
  return toEndpoint(row, config.ENDPOINT_MAX_CONCURRENCY, maySeeSecrets(ctx));
}
