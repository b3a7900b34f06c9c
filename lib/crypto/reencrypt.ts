import { eq, ne } from "drizzle-orm";
import { inTransaction, type Ctx } from "../context";
import { alertChannels, endpointSecrets } from "../db/schema";
import { decrypt, encrypt, keyIdOf } from "./encryption";

/**
 * Re-encrypts every secret not yet under the current ENCRYPTION_KEY, after which the previous keys
 * (ENCRYPTION_KEYS_PREVIOUS) can be dropped from the configuration.
 */
export async function reencryptSecrets({ ctx }: { ctx: Ctx }): Promise<{ endpointSecrets: number; alertChannels: number }> {
  const { config } = ctx;
  const keys = [config.ENCRYPTION_KEY, ...config.ENCRYPTION_KEYS_PREVIOUS];
  const current = keyIdOf(config.ENCRYPTION_KEY);
  return inTransaction(ctx, async ({ db: tx }) => {
    const secrets = await tx.select().from(endpointSecrets).where(ne(endpointSecrets.keyId, current)).for("update");
    for (const row of secrets) {
      const next = encrypt(decrypt(row.ciphertext, keys), config.ENCRYPTION_KEY);
      await tx.update(endpointSecrets).set({ ciphertext: next.ciphertext, keyId: next.keyId }).where(eq(endpointSecrets.id, row.id));
    }
    const channels = await tx.select().from(alertChannels).where(ne(alertChannels.keyId, current)).for("update");
    for (const row of channels) {
      const next = encrypt(decrypt(row.configCiphertext, keys), config.ENCRYPTION_KEY);
      await tx.update(alertChannels).set({ configCiphertext: next.ciphertext, keyId: next.keyId }).where(eq(alertChannels.id, row.id));
    }
    return { endpointSecrets: secrets.length, alertChannels: channels.length };
  });
}
