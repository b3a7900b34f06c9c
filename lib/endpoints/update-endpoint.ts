import { recordAuditEvent } from "../audit/record-audit-event";
import { eq, sql } from "drizzle-orm";
import { inTransaction, maySeeSecrets, type Ctx } from "../context";
import { endpoints } from "../db/schema";
import { NotFoundError } from "../errors";
import { checkFilter } from "../filters";
import { checkDestination } from "./check-destination";
import { findEndpointRow } from "./queries";
import { toEndpoint, type UpdateEndpointInput } from "./schemas";
import { setEndpointState } from "./set-endpoint-state";
import { checkPortalEndpointFields } from "./portal-limits";
import { headersForUpdate } from "../webhooks/headers";
import { uidTaken } from "./uid";
import { releaseLines } from "./release-lines";
import { releaseRateBookings } from "./release-rate-bookings";

export async function updateEndpoint({ ctx, id: ref, input }: { ctx: Ctx; id: string; input: UpdateEndpointInput }) {
  checkPortalEndpointFields(ctx, input);
  const filter = input.filter === undefined ? undefined : checkFilter(input.filter);
  const stored = await findEndpointRow(ctx, ref);
  const { id } = stored;
  const where = [input.url, input.kind, input.target, input.headers, input.svix_headers].some((field) => field !== undefined) ? checkDestination(ctx.config, input, stored) : undefined;
  const url = where?.url;
  // A reader who saw the values masked sends them back masked: those keep what is stored. Except
  // when the endpoint is re-pointed by a caller who may not read them: the stored values would go
  // to a URL of its choosing (a test send would show them there), so only values it sends itself
  // stay, and the answer names the ones dropped.
  const repointed = url !== undefined && url !== stored.url;
  const { headers, dropped } = headersForUpdate(input.headers, stored.headers, !repointed || maySeeSecrets(ctx));
  const row = await uidTaken(input.uid, () => inTransaction(ctx, async (tx) => {
    // A change of state first: it locks queue and delivery rows before the endpoint's own.
    if (input.disabled !== undefined) {
      await setEndpointState({ ctx: tx, id, change: input.disabled ? { state: "disabled", reason: "disabled by request" } : { state: "active" } });
    }
    const rateChanged = input.rate_limit_per_second !== undefined && input.rate_limit_per_second !== stored.rateLimitPerSecond;
    if (rateChanged) await releaseRateBookings(tx.sql, id);
    const [updated] = await tx.db
      .update(endpoints)
      .set({
        ...(where !== undefined ? where : {}),
        ...(input.uid !== undefined ? { uid: input.uid } : {}),
        ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
        ...(input.channels !== undefined ? { channels: input.channels?.length ? [...new Set(input.channels)] : null } : {}),
        ...(input.svix_headers !== undefined ? { svixHeaders: input.svix_headers } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.event_types !== undefined ? { eventTypes: input.event_types?.length ? [...new Set(input.event_types)] : null } : {}),
        ...(headers !== undefined ? { headers } : {}),
        ...(input.max_concurrency !== undefined ? { maxConcurrency: input.max_concurrency } : {}),
        ...(input.rate_limit_per_second !== undefined ? { rateLimitPerSecond: input.rate_limit_per_second } : {}),
        ...(rateChanged ? { rateBookedUntil: null } : {}),
        ...(filter !== undefined ? { filter, filterVersion: sql`${endpoints.filterVersion} + 1` } : {}),
        ...(input.ordering !== undefined ? { ordering: input.ordering } : {}),
        ...(input.ordering_key !== undefined ? { orderingKey: input.ordering_key } : {}),
        updatedAt: new Date(),
      })
      .where(eq(endpoints.id, id))
      .returning();
    if (!updated) throw new NotFoundError("endpoint", id);
    if (stored.ordering === "ordered" && updated.ordering === "none") await releaseLines(tx.sql, id);
    await recordAuditEvent(tx, {
      action: "endpoint.updated",
      targetType: "endpoint",
      targetId: id,
      data: { fields: Object.keys(input), ...(dropped.length > 0 ? { headers_dropped: dropped } : {}) },
    });
    return updated;
  }));
  return { ...toEndpoint(row, ctx.config.ENDPOINT_MAX_CONCURRENCY, maySeeSecrets(ctx)), headers_dropped: dropped };
}
