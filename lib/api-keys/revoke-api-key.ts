import { and, eq, isNull, or } from "drizzle-orm";
import type { Executor } from "../db/client";
import { apiKeys } from "../db/schema";
import { NotFoundError } from "../errors";

/** Revokes by id (`key_…`) or by the key's visible prefix. */
export async function revokeApiKey(db: Executor, input: { ref: string }) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(or(eq(apiKeys.id, input.ref), eq(apiKeys.prefix, input.ref)), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, name: apiKeys.name });
  if (!row) throw new NotFoundError("active API key", input.ref);
  return row;
}
