import { and, desc, eq, isNull } from "drizzle-orm";
import type { Ctx } from "../context";
import { decrypt, decryptionKeys, encrypt } from "../crypto/encryption";
import { endpointSecrets } from "../db/schema";
import { newId } from "../ids";
import { ValidationError } from "../errors";
import { generateSecret, isValidSecret } from "../webhooks/sign";

/**
 * A secret to store: generated when none is given; else a `whsec_` secret, or the bare base64 Svix
 * also takes (an imported one), which gets the prefix. Svix's asymmetric keys (`whsk_`, `whpk_`)
 * sign with Ed25519, which this product does not: refused in words.
 */
export function checkSecret(given: string | undefined): string {
  if (given === undefined) return generateSecret();
  if (/^wh(sk|pk)1?_/.test(given)) {
    throw new ValidationError("The secret is invalid.", [{ path: "key", message: "asymmetric (Ed25519) secrets are not supported; use a whsec_ secret" }]);
  }
  const secret = /^[A-Za-z0-9+/=]{32,100}$/.test(given) ? `whsec_${given}` : given;
  if (!isValidSecret(secret)) {
    throw new ValidationError("The secret is invalid.", [
      { path: "key", message: "must be whsec_ followed by base64 of 24 to 75 bytes" },
    ]);
  }
  return secret;
}

export async function storeSecret(ctx: Ctx, endpoint: { id: string; consumerId: string }, secret: string): Promise<void> {
  const { ciphertext, keyId } = encrypt(secret, ctx.config.ENCRYPTION_KEY);
  await ctx.db.insert(endpointSecrets).values({ id: newId("endpointSecret"), endpointId: endpoint.id, consumerId: endpoint.consumerId, ciphertext, keyId });
}

export async function currentSecret(ctx: Ctx, endpointId: string): Promise<string> {
  const [row] = await ctx.db
    .select({ ciphertext: endpointSecrets.ciphertext })
    .from(endpointSecrets)
    .where(and(eq(endpointSecrets.endpointId, endpointId), isNull(endpointSecrets.expiresAt)))
    .orderBy(desc(endpointSecrets.createdAt))
    .limit(1);
  if (!row) throw new Error(`Endpoint ${endpointId} has no current secret`);
  return decrypt(row.ciphertext, decryptionKeys(ctx.config));
}
