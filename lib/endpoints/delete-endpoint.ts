import { recordAuditEvent } from "../audit/record-audit-event";
import { eq } from "drizzle-orm";
import { inTransaction, type Ctx } from "../context";
import { endpoints } from "../db/schema";
import { lockEndpoints } from "./lock-endpoints";
import { findEndpointRow } from "./queries";

/** Deletes the endpoint with its secrets and deliveries; its attempt log stays until retention. */
export async function deleteEndpoint({ ctx, id: ref }: { ctx: Ctx; id: string }) {
  const { id } = await findEndpointRow(ctx, ref);
  await inTransaction(ctx, async (tx) => {
    // The cascade would lock the endpoint, then its deliveries, then their queue rows: the reverse
    // of the worker's order. Taken in that order first, the delete waits for outcomes being written.
    await lockEndpoints(tx, { endpointId: id }, "all");
    await tx.db.delete(endpoints).where(eq(endpoints.id, id));
    await recordAuditEvent(tx, { action: "endpoint.deleted", targetType: "endpoint", targetId: id });
  });
}
