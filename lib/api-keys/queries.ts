import { and, isNull } from "drizzle-orm";
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
