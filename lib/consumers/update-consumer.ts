import { insertAuditEvent } from "../audit/insert-audit-event";
import { ForbiddenError } from "../errors";
import { eq } from "drizzle-orm";
import type { Ctx } from "../context";
import { consumers } from "../db/schema";
import { findConsumer } from "./queries";
import { consumerView, type UpdateConsumerInput } from "./schemas";

export async function updateConsumer({ ctx, ref, input }: { ctx: Ctx; ref: string; input: UpdateConsumerInput }) {
  const current = await findConsumer(ctx, ref);
  if (ctx.actor.type === "portal") {
    if (input.name !== undefined || input.metadata !== undefined) throw new ForbiddenError("A portal session may change only the consumer's alert_emails.");
    // Where alerts about the endpoints go is part of managing them.
    if (!ctx.actor.capabilities.includes("manage_endpoints")) throw new ForbiddenError("This portal session lacks the `manage_endpoints` capability.");
  }
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(consumers)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
      ...(input.alert_emails !== undefined ? { alertEmails: input.alert_emails } : {}),
      updatedAt: new Date(),
    })
      .where(eq(consumers.id, current.id))
      .returning();
    await insertAuditEvent(tx, { actor: ctx.actor, action: "consumer.updated", targetType: "consumer", targetId: current.id, data: { fields: Object.keys(input) } });
    return updated!;
  });
  return consumerView(ctx, row);
}
