import { and, eq, isNull, or } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { apiKeys } from "../db/schema";
import { NotFoundError } from "../errors";

/** Revokes by id (`key_…`) or by the key's visible prefix. */
export async function revokeApiKey({ ctx, input }: { ctx: Ctx; input: { ref: string } }) {
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(or(eq(apiKeys.id, input.ref), eq(apiKeys.prefix, input.ref)), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix });
    if (!row) throw new NotFoundError("active API key", input.ref);
    await recordAuditEvent(tx, { action: "api_key.revoked", targetType: "api_key", targetId: row.id, data: { name: row.name, prefix: row.prefix } });
    return { id: row.id, name: row.name };
  });
}
