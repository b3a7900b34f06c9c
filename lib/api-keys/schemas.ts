import { z } from "zod";
import type { apiKeys } from "../db/schema";
import { Text } from "../schemas";

export const CreateApiKeyInput = z.strictObject({
  name: Text.trim().min(1).max(100),
});
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyInput>;

/** A key as listed: never its secret part, which is only ever kept as a hash. */
export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** The answer to a create: the only time the key itself is shown. */
export const CreatedApiKey = ApiKey.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export function toApiKey(row: Pick<typeof apiKeys.$inferSelect, "id" | "name" | "prefix" | "createdAt" | "lastUsedAt">): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}
