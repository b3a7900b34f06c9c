import { and, desc, eq, isNull } from "drizzle-orm";
import { getConfig } from "../config";
import { decrypt, encrypt } from "../crypto/encryption";
import type { Executor } from "../db/client";
import { endpointSecrets } from "../db/schema";
import { newId } from "../ids";
import { ValidationError } from "../errors";
import { generateSecret, isValidSecret } from "../webhooks/sign";

/** Every key the configuration can decrypt with: the current one first, then retired ones. */
export function decryptionKeys(): Buffer[] {
  const config = getConfig();
  return [config.ENCRYPTION_KEY, ...config.ENCRYPTION_KEYS_PREVIOUS];
}

export function checkSecret(secret: string | undefined): string {
  if (secret === undefined) return generateSecret();
  if (!isValidSecret(secret)) {
    throw new ValidationError("The secret is invalid.", [
      { path: "key", message: "must be whsec_ followed by base64 of 24 to 64 bytes" },
    ]);
  }
  return secret;
}

export async function storeSecret(db: Executor, endpointId: string, secret: string): Promise<void> {
  const { ciphertext, keyId } = encrypt(secret, getConfig().ENCRYPTION_KEY);
  await db.insert(endpointSecrets).values({ id: newId("endpointSecret"), endpointId, ciphertext, keyId });
}

export async function currentSecret(db: Executor, endpointId: string): Promise<string> {
  const [row] = await db
    .select({ ciphertext: endpointSecrets.ciphertext })
    .from(endpointSecrets)
    .where(and(eq(endpointSecrets.endpointId, endpointId), isNull(endpointSecrets.expiresAt)))
    .orderBy(desc(endpointSecrets.createdAt))
    .limit(1);
  if (!row) throw new Error(`Endpoint ${endpointId} has no current secret`);
  return decrypt(row.ciphertext, decryptionKeys());
}
