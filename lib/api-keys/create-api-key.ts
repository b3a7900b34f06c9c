import { randomBytes } from "node:crypto";
import type { Executor } from "../db/client";
import { apiKeys } from "../db/schema";
import { sha256Hex } from "../crypto/encryption";
import { newId } from "../ids";
import { toApiKey, type CreatedApiKey } from "./schemas";

/** Creates a key and returns it in clear: the only time it is ever shown. */
export async function createApiKey(db: Executor, input: { name: string }): Promise<CreatedApiKey> {
  const key = `sk_${randomBytes(32).toString("base64url")}`;
  const [row] = await db
    .insert(apiKeys)
    .values({ id: newId("apiKey"), name: input.name, prefix: key.slice(0, 10), hash: sha256Hex(key) })
    .returning();
  return { ...toApiKey(row!), key };
}
