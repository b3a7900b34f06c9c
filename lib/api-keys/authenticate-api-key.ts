import type { Ctx } from "../context";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { apiKeys } from "../db/schema";
import { sha256Hex } from "../crypto/encryption";

const TOUCH_EVERY_MS = 60_000;

/** The active key for a bearer token, or null. last_used_at is refreshed at most once a minute. */
export async function authenticateApiKey(ctx: Ctx, token: string): Promise<{ id: string; name: string } | null> {
  const { db } = ctx;
  if (!token.startsWith("sk_") || token.length > 200) return null;
  const [row] = await db
    .select({ id: apiKeys.id, name: apiKeys.name, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.hash, sha256Hex(token)), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    const stale = new Date(Date.now() - TOUCH_EVERY_MS);
    await db
      .update(apiKeys)
      .set({ lastUsedAt: new Date() })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale))));
  }
  return { id: row.id, name: row.name };
}
