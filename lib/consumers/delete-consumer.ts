import { eq } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { consumers } from "../db/schema";
import { lockEndpoints } from "../endpoints/lock-endpoints";
import { findConsumer } from "./queries";

/** Deletes the consumer with its endpoints, messages and pending deliveries. */
export async function deleteConsumer({ ctx, ref }: { ctx: Ctx; ref: string }) {
  const current = await findConsumer(ctx, ref);
  await inTransaction(ctx, async (tx) => {
    // The consumer's row first (ingest takes it before its endpoints'), so no new message or
    // endpoint joins meanwhile; then its endpoints' rows in the worker's order, for the cascade.
    await tx.db.select({ id: consumers.id }).from(consumers).where(eq(consumers.id, current.id)).for("update");
    await lockEndpoints(tx, { consumerId: current.id }, "all");
    await tx.db.delete(consumers).where(eq(consumers.id, current.id));
    // Only the fact: what the consumer held (names, addresses, payloads) is gone with it.
    await recordAuditEvent(tx, { action: "consumer.deleted", targetType: "consumer", targetId: current.id, data: { uid: current.uid } });
  });
}
