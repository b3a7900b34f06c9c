import { randomBytes } from "node:crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { apiKeys } from "../db/schema";
import { sha256Hex } from "../crypto/encryption";
import { newId } from "../ids";
import { toApiKey, type CreatedApiKey } from "./schemas";

/** Creates a key and returns it in clear: the only time it is ever shown. */
export async function createApiKey({ ctx, input }: { ctx: Ctx; input: { name: string } }): Promise<CreatedApiKey> {
  const key = `sk_${randomBytes(32).toString("base64url")}`;
  const row = await inTransaction(ctx, async (tx) => {
    const [created] = await tx.db
      .insert(apiKeys)
      .values({ id: newId("apiKey"), name: input.name, prefix: key.slice(0, 10), hash: sha256Hex(key) })
      .returning();
    await recordAuditEvent(tx, { action: "api_key.created", targetType: "api_key", targetId: created!.id, data: { name: created!.name, prefix: created!.prefix } });
    return created!;
  });
  return { ...toApiKey(row), key };
}
