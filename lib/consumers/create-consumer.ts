import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { consumers } from "../db/schema";
import { isUniqueViolation } from "../db/errors";
import { ConflictError } from "../errors";
import { newId } from "../ids";
import { toConsumer, type NewConsumer } from "./schemas";

export async function createConsumer({ ctx, input }: { ctx: Ctx; input: NewConsumer }) {
  try {
    const row = await inTransaction(ctx, async (tx) => {
      const id = newId("consumer");
      const [created] = await tx.db
        .insert(consumers)
        .values({
          id,
          // Without a uid of its own (a Svix application may have none), the consumer is known by its id.
          uid: input.uid ?? id,
          name: input.name,
          metadata: input.metadata ?? {},
          alertEmails: input.alert_emails ?? [],
          svixId: input.svix_id ?? null,
          throttleRate: input.throttle_rate ?? null,
          weight: input.weight ?? 1,
        })
        .returning();
      // The uid only: the audit log outlives the consumer, so its name, metadata and alert
      // addresses (personal data, maybe) are not copied into it.
      await recordAuditEvent(tx, { action: "consumer.created", targetType: "consumer", targetId: created!.id, data: { uid: created!.uid } });
      return created!;
    });
    return toConsumer(row);
  } catch (error) {
    if (isUniqueViolation(error, "consumers_svix_id_key")) throw new ConflictError("svix_id_taken", `A consumer with Svix id "${input.svix_id}" already exists.`);
    if (isUniqueViolation(error)) throw new ConflictError("uid_taken", `A consumer with uid "${input.uid}" already exists.`);
    throw error;
  }
}
