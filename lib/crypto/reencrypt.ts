import { and, eq, ne, sql } from "drizzle-orm";
import { inTransaction, type Ctx } from "../context";
import { alertChannels, endpoints, endpointSecrets, operatorTwoFactor } from "../db/schema";
import { decrypt, encrypt, keyIdOf } from "./encryption";

/**
 * Where a broker destination's target keeps its sealed URL (lib/destinations/broker.ts): named here,
 * below the destinations, as the ciphertext's `v1.<key id>.…` format is.
 */
const TARGET_CIPHERTEXT = "url_ciphertext";

/**
 * Re-encrypts every secret not yet under the current ENCRYPTION_KEY — signing secrets, alert
 * channel credentials, broker destinations' URLs, operators' TOTP secrets — after which the previous keys
 * (ENCRYPTION_KEYS_PREVIOUS) can be dropped from the configuration.
 */
export async function reencryptSecrets({ ctx }: { ctx: Ctx }): Promise<{ endpointSecrets: number; alertChannels: number; endpointTargets: number; totpSecrets: number }> {
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
    // The key id is the ciphertext's second part.
    const targets = await tx
      .select({ id: endpoints.id, target: endpoints.target })
      .from(endpoints)
      .where(and(sql`${endpoints.target} ? ${TARGET_CIPHERTEXT}`, sql`split_part(${endpoints.target} ->> ${TARGET_CIPHERTEXT}, '.', 2) <> ${current}`))
      .for("update");
    for (const row of targets) {
      const target = row.target as Record<string, string>;
      const next = encrypt(decrypt(target[TARGET_CIPHERTEXT]!, keys), config.ENCRYPTION_KEY);
      await tx.update(endpoints).set({ target: { ...target, [TARGET_CIPHERTEXT]: next.ciphertext } }).where(eq(endpoints.id, row.id));
    }
    const factors = await tx.select().from(operatorTwoFactor).where(ne(operatorTwoFactor.keyId, current)).for("update");
    for (const row of factors) {
      const next = encrypt(decrypt(row.secretCiphertext, keys), config.ENCRYPTION_KEY);
      await tx.update(operatorTwoFactor).set({ secretCiphertext: next.ciphertext, keyId: next.keyId }).where(eq(operatorTwoFactor.operatorId, row.operatorId));
    }
    return { endpointSecrets: secrets.length, alertChannels: channels.length, endpointTargets: targets.length, totpSecrets: factors.length };
  });
}
