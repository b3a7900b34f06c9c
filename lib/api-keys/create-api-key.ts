import { randomBytes } from "node:crypto";
import { insertAuditEvent } from "../audit/insert-audit-event";
import type { Actor } from "../context";
import type { Executor } from "../db/client";
import { apiKeys } from "../db/schema";
import { sha256Hex } from "../crypto/encryption";
import { newId } from "../ids";
import { toApiKey, type CreatedApiKey } from "./schemas";

/** Creates a key and returns it in clear: the only time it is ever shown. */
export async function createApiKey(db: Executor, input: { name: string }, actor: Actor = { type: "system" }): Promise<CreatedApiKey> {
  const key = `sk_${randomBytes(32).toString("base64url")}`;
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(apiKeys)
      .values({ id: newId("apiKey"), name: input.name, prefix: key.slice(0, 10), hash: sha256Hex(key) })
      .returning();
    await insertAuditEvent(tx, { actor, action: "api_key.created", targetType: "api_key", targetId: created!.id, data: { name: created!.name, prefix: created!.prefix } });
    return created!;
  });
  return { ...toApiKey(row), key };
}
