import { recordAuditEvent } from "../audit/record-audit-event";
import { ConflictError, ForbiddenError } from "../errors";
import { isUniqueViolation } from "../db/errors";
import { eq } from "drizzle-orm";
import { inTransaction, type Ctx } from "../context";
import { consumers } from "../db/schema";
import { findConsumer } from "./queries";
import { consumerView, type ConsumerChanges } from "./schemas";

export async function updateConsumer({ ctx, ref, input }: { ctx: Ctx; ref: string; input: ConsumerChanges }) {
  const current = await findConsumer(ctx, ref);
  // A portal session reaches this only through PATCH /consumers/{consumer}, whose contract already
  // asks for `manage_endpoints` (where alerts about the endpoints go is part of managing them); the
  // Svix application routes refuse portal sessions. What no route contract can say: which fields.
  if (ctx.actor.type === "portal" && Object.entries(input).some(([field, value]) => field !== "alert_emails" && value !== undefined)) {
    throw new ForbiddenError("A portal session may change only the consumer's alert_emails.");
  }
  const row = await inTransaction(ctx, async (tx) => {
    const [updated] = await tx.db
      .update(consumers)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
      ...(input.alert_emails !== undefined ? { alertEmails: input.alert_emails } : {}),
      ...(input.uid !== undefined ? { uid: input.uid ?? current.id } : {}),
      ...(input.throttle_rate !== undefined ? { throttleRate: input.throttle_rate } : {}),
      ...(input.weight !== undefined ? { weight: input.weight } : {}),
      updatedAt: new Date(),
    })
      .where(eq(consumers.id, current.id))
      .returning();
    await recordAuditEvent(tx, { action: "consumer.updated", targetType: "consumer", targetId: current.id, data: { fields: Object.keys(input) } });
    return updated!;
  }).catch((error: unknown) => {
    if (isUniqueViolation(error)) throw new ConflictError("uid_taken", `A consumer with uid "${input.uid}" already exists.`);
    throw error;
  });
  return consumerView(ctx, row);
}
