import { inArray, isNull } from "drizzle-orm";
import type { Ctx } from "../context";
import { apiKeys } from "../db/schema";
import { rowsById } from "../db/by-id";
import { selectPage } from "../db/keyset";
import { toPage, type PageQuery } from "../pagination";
import { toApiKey } from "./schemas";

/** Active keys, newest first; a revoked key is gone for good and not listed. */
export async function listApiKeys(ctx: Ctx, query: PageQuery) {
  const rows = await selectPage(ctx.db, apiKeys, query, [isNull(apiKeys.revokedAt)]);
  return toPage(rows, query.limit, toApiKey);
}

/** The names and prefixes of the keys among `ids`, revoked ones too (a key row is never deleted), by id. */
export function apiKeyNames(ctx: Ctx, ids: Iterable<string | null | undefined>): Promise<Map<string, { id: string; name: string; prefix: string }>> {
  return rowsById(ids, (wanted) => ctx.db.select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix }).from(apiKeys).where(inArray(apiKeys.id, wanted)));
}
