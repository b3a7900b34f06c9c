import { and, inArray, isNull } from "drizzle-orm";
import type { Ctx } from "../context";
import { apiKeys } from "../db/schema";
import { keysetBefore, newestFirst } from "../db/keyset";
import { decodeCursor, toPage, type PageQuery } from "../pagination";
import { toApiKey } from "./schemas";

/** Active keys, newest first; a revoked key is gone for good and not listed. */
export async function listApiKeys(ctx: Ctx, query: PageQuery) {
  const cursor = decodeCursor(query.cursor);
  const rows = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(isNull(apiKeys.revokedAt), cursor ? keysetBefore(apiKeys.createdAt, apiKeys.id, cursor) : undefined))
    .orderBy(...newestFirst(apiKeys.createdAt, apiKeys.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toApiKey);
}

/** The names and prefixes of the keys among `ids`, revoked ones too (a key row is never deleted), by id. */
export async function apiKeyNames(ctx: Ctx, ids: Iterable<string | null | undefined>): Promise<Map<string, { name: string; prefix: string }>> {
  const { db } = ctx;
  const wanted = [...new Set([...ids].filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix }).from(apiKeys).where(inArray(apiKeys.id, wanted));
  return new Map(rows.map((row) => [row.id, { name: row.name, prefix: row.prefix }]));
}
