import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, maySeeSecrets, type Ctx } from "../context";
import { eq } from "drizzle-orm";
import { consumers, endpoints } from "../db/schema";
import { checkFilter } from "../filters";
import { newId } from "../ids";
import { findConsumer } from "../consumers/queries";
import { checkDestination } from "./check-destination";
import { checkPortalEndpointCount, checkPortalEndpointFields } from "./portal-limits";
import { checkSecret, storeSecret } from "./secrets";
import { uidTaken } from "./uid";
import { toEndpoint, type CreateEndpointInput } from "./schemas";

/**
 * `svixId`: the endpoint's id in a Svix deployment it is imported from, kept as an alias the API
 * takes wherever it takes the id.
 */
export async function createEndpoint({ ctx, consumerRef, input, svixId }: { ctx: Ctx; consumerRef: string; input: CreateEndpointInput; svixId?: string }) {
  const where = checkDestination(ctx.config, input)!;
  const secret = checkSecret(input.secret);
  const filter = input.filter === undefined ? null : checkFilter(input.filter);
  checkPortalEndpointFields(ctx, input);
  const consumer = await findConsumer(ctx, consumerRef);
  const row = await uidTaken(input.uid, () => inTransaction(ctx, async (tx) => {
    if (ctx.actor.type === "portal") {
      // Two creates racing for the last place take turns on the consumer's row.
      await tx.db.select({ id: consumers.id }).from(consumers).where(eq(consumers.id, consumer.id)).for("update");
      await checkPortalEndpointCount(tx, consumer.id);
    }
    const [created] = await tx.db
      .insert(endpoints)
      .values({
        id: newId("endpoint"),
        consumerId: consumer.id,
        ...where,
        uid: input.uid ?? null,
        description: input.description ?? "",
        metadata: input.metadata ?? {},
        channels: input.channels?.length ? [...new Set(input.channels)] : null,
        svixId: svixId ?? null,
        svixHeaders: input.svix_headers ?? false,
        eventTypes: input.event_types?.length ? [...new Set(input.event_types)] : null,
        headers: input.headers ?? {},
        maxConcurrency: input.max_concurrency ?? null,
        rateLimitPerSecond: input.rate_limit_per_second ?? null,
        filter,
        ordering: input.ordering ?? "none",
        orderingKey: input.ordering_key ?? null,
        state: input.disabled ? "disabled" : "active",
        disabledAt: input.disabled ? new Date() : null,
      })
      .returning();
    await storeSecret(tx, created!, secret);
    await recordAuditEvent(tx, { action: "endpoint.created", targetType: "endpoint", targetId: created!.id, data: { consumer_id: consumer.id } });
    return created!;
  }));
  return toEndpoint(row, ctx.config.ENDPOINT_MAX_CONCURRENCY, maySeeSecrets(ctx));
}
