import { insertAuditEvent } from "../audit/insert-audit-event";
import type { Ctx } from "../context";
import { consumers } from "../db/schema";
import { isUniqueViolation } from "../db/errors";
import { ConflictError } from "../errors";
import { newId } from "../ids";
import { toConsumer, type CreateConsumerInput } from "./schemas";

export async function createConsumer({ ctx, input }: { ctx: Ctx; input: CreateConsumerInput }) {
  try {
    const row = await ctx.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(consumers)
        .values({
          id: newId("consumer"),
          uid: input.uid,
          name: input.name,
          metadata: input.metadata ?? {},
          alertEmails: input.alert_emails ?? [],
        })
        .returning();
      // The uid only: the audit log outlives the consumer, so its name, metadata and alert
      // addresses (personal data, maybe) are not copied into it.
      await insertAuditEvent(tx, { actor: ctx.actor, action: "consumer.created", targetType: "consumer", targetId: created!.id, data: { uid: created!.uid } });
      return created!;
    });
    return toConsumer(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("uid_taken", `A consumer with uid "${input.uid}" already exists.`);
    throw error;
  }
}
