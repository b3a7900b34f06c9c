import { insertAuditEvent } from "../audit/insert-audit-event";
import { getConfig } from "../config";
import { maySeeSecrets, type Ctx } from "../context";
import { eq } from "drizzle-orm";
import { consumers, endpoints } from "../db/schema";
import { newId } from "../ids";
import { findConsumer } from "../consumers/queries";
import { assertEndpointUrl } from "./check-url";
import { checkPortalEndpointCount, checkPortalEndpointFields } from "./portal-limits";
import { checkSecret, storeSecret } from "./secrets";
import { toEndpoint, type CreateEndpointInput } from "./schemas";

export async function createEndpoint({ ctx, consumerRef, input }: { ctx: Ctx; consumerRef: string; input: CreateEndpointInput }) {
  const url = assertEndpointUrl(input.url);
  const secret = checkSecret(input.secret);
  const config = getConfig();
  checkPortalEndpointFields(ctx, input, config);
  const consumer = await findConsumer(ctx, consumerRef);
  const row = await ctx.db.transaction(async (tx) => {
    if (ctx.actor.type === "portal") {
      // Two creates racing for the last place take turns on the consumer's row.
      await tx.select({ id: consumers.id }).from(consumers).where(eq(consumers.id, consumer.id)).for("update");
      await checkPortalEndpointCount(ctx, tx, consumer.id, config);
    }
    const [created] = await tx
      .insert(endpoints)
      .values({
        id: newId("endpoint"),
        consumerId: consumer.id,
        url,
        description: input.description ?? "",
        eventTypes: input.event_types?.length ? [...new Set(input.event_types)] : null,
        headers: input.headers ?? {},
        maxConcurrency: input.max_concurrency ?? null,
        rateLimitPerSecond: input.rate_limit_per_second ?? null,
        state: input.disabled ? "disabled" : "active",
        disabledAt: input.disabled ? new Date() : null,
      })
      .returning();
    await storeSecret(tx, created!.id, secret);
    await insertAuditEvent(tx, { actor: ctx.actor, action: "endpoint.created", targetType: "endpoint", targetId: created!.id, data: { url } });
    return created!;
  });
  return toEndpoint(row, config.ENDPOINT_MAX_CONCURRENCY, maySeeSecrets(ctx));
}
