import { inArray, isNull } from "drizzle-orm";
import type { Ctx } from "../context";
import { apiKeys } from "../db/schema";
import { selectPage } from "../db/keyset";
import { toPage, type PageQuery } from "../pagination";
import { toApiKey } from "./schemas";

/** Active keys, newest first; a revoked key is gone for good and not listed. */
export async function listApiKeys(ctx: Ctx, query: PageQuery) {
  const rows = await selectPage(ctx.db, apiKeys, query, [isNull(apiKeys.revokedAt)]);
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
