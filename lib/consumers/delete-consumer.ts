import { eq } from "drizzle-orm";
import { insertAuditEvent } from "../audit/insert-audit-event";
import type { Ctx } from "../context";
import { consumers } from "../db/schema";
import { transactionWithRetry } from "../db/retry";
import { lockEndpoints } from "../endpoints/lock-endpoints";
import { findConsumer } from "./queries";

/** Deletes the consumer with its endpoints, messages and pending deliveries. */
export async function deleteConsumer({ ctx, ref }: { ctx: Ctx; ref: string }) {
  const current = await findConsumer(ctx, ref);
  await transactionWithRetry(ctx.db, async (tx) => {
    // The consumer's row first (ingest takes it before its endpoints'), so no new message or
    // endpoint joins meanwhile; then its endpoints' rows in the worker's order, for the cascade.
    await tx.select({ id: consumers.id }).from(consumers).where(eq(consumers.id, current.id)).for("update");
    await lockEndpoints(tx, { consumerId: current.id }, "all");
    await tx.delete(consumers).where(eq(consumers.id, current.id));
    // Only the fact: what the consumer held (names, addresses, payloads) is gone with it.
    await insertAuditEvent(tx, { actor: ctx.actor, action: "consumer.deleted", targetType: "consumer", targetId: current.id, data: { uid: current.uid } });
  });
}
