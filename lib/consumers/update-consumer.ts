import { eq } from "drizzle-orm";
import type { Ctx } from "../context";
import { consumers } from "../db/schema";
import { findConsumer } from "./queries";
import { toConsumer, type UpdateConsumerInput } from "./schemas";

export async function updateConsumer({ ctx, ref, input }: { ctx: Ctx; ref: string; input: UpdateConsumerInput }) {
  const current = await findConsumer(ctx, ref);
  const [row] = await ctx.db
    .update(consumers)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
      ...(input.alert_emails !== undefined ? { alertEmails: input.alert_emails } : {}),
      updatedAt: new Date(),
    })
    .where(eq(consumers.id, current.id))
    .returning();
  return toConsumer(row!);
}
