import { count, eq } from "drizzle-orm";
import type { Ctx } from "../context";
import { endpoints } from "../db/schema";
import { ConflictError, ValidationError } from "../errors";

/**
 * What a customer may set through the portal: an endpoint's concurrency only up to the operator's
 * ENDPOINT_MAX_CONCURRENCY (each slot is a worker connection the SaaS pays for). The SaaS's own
 * code (API keys) and operators may go higher.
 */
export function checkPortalEndpointFields(ctx: Ctx, input: { max_concurrency?: number | null }): void {
  if (ctx.actor.type !== "portal") return;
  const { config } = ctx;
  if (input.max_concurrency != null && input.max_concurrency > config.ENDPOINT_MAX_CONCURRENCY) {
    throw new ValidationError("The endpoint's settings are not allowed.", [
      { path: "max_concurrency", message: `at most ${config.ENDPOINT_MAX_CONCURRENCY} through the portal` },
    ]);
  }
}

/** A portal session adds endpoints only while its consumer has fewer than PORTAL_MAX_ENDPOINTS. */
export async function checkPortalEndpointCount(ctx: Ctx, consumerId: string): Promise<void> {
  if (ctx.actor.type !== "portal") return;
  const { config } = ctx;
  const [row] = await ctx.db.select({ n: count() }).from(endpoints).where(eq(endpoints.consumerId, consumerId));
  if ((row?.n ?? 0) >= config.PORTAL_MAX_ENDPOINTS) {
    throw new ConflictError("endpoint_limit", `This account has ${config.PORTAL_MAX_ENDPOINTS} endpoints, the most the portal can add; delete one first.`);
  }
}
