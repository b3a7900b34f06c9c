import { and, eq, isNull, or } from "drizzle-orm";
import { insertAuditEvent } from "../audit/insert-audit-event";
import type { Actor } from "../context";
import type { Executor } from "../db/client";
import { apiKeys } from "../db/schema";
import { NotFoundError } from "../errors";

/** Revokes by id (`key_…`) or by the key's visible prefix. */
export async function revokeApiKey(db: Executor, input: { ref: string }, actor: Actor = { type: "system" }) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(or(eq(apiKeys.id, input.ref), eq(apiKeys.prefix, input.ref)), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix });
    if (!row) throw new NotFoundError("active API key", input.ref);
    await insertAuditEvent(tx, { actor, action: "api_key.revoked", targetType: "api_key", targetId: row.id, data: { name: row.name, prefix: row.prefix } });
    return { id: row.id, name: row.name };
  });
}
