import { insertAuditEvent } from "../audit/insert-audit-event";
import { eq } from "drizzle-orm";
import type { Ctx } from "../context";
import { endpoints } from "../db/schema";
import { transactionWithRetry } from "../db/retry";
import { lockEndpoints } from "./lock-endpoints";
import { findEndpointRow } from "./queries";

/** Deletes the endpoint with its secrets and deliveries; its attempt log stays until retention. */
export async function deleteEndpoint({ ctx, id }: { ctx: Ctx; id: string }) {
  await findEndpointRow(ctx, id);
  await transactionWithRetry(ctx.db, async (tx) => {
    // The cascade would lock the endpoint, then its deliveries, then their queue rows: the reverse
    // of the worker's order. Taken in that order first, the delete waits for outcomes being written.
    await lockEndpoints(tx, { endpointId: id }, "all");
    await tx.delete(endpoints).where(eq(endpoints.id, id));
    await insertAuditEvent(tx, { actor: ctx.actor, action: "endpoint.deleted", targetType: "endpoint", targetId: id });
  });
}
