import type { Config } from "../config";
import { ConfigError } from "../config";
import type { SqlOrTx } from "../db/client";
import { logger } from "../logger";
import { decryptionKeys, keyIdOf } from "./encryption";

export class WrongEncryptionKeyError extends ConfigError {
  override name = "WrongEncryptionKeyError";
}

/**
 * Refuses to start a process whose ENCRYPTION_KEY cannot read the secrets this database holds — a
 * restore started with another installation's key, a typo in a secret store — before it signs a
 * single delivery with nothing (every one would fail `secret_unavailable`) or seals new secrets
 * under a key the old ones do not share. The check value is the key id stored beside every
 * ciphertext since the first (the first 12 hex digits of the key's SHA-256, lib/crypto/encryption.ts):
 * no migration, nothing stored at first start, and a database with no secrets yet (a fresh one)
 * passes. Secrets under some configured key and some under a key no longer configured (a key
 * dropped from ENCRYPTION_KEYS_PREVIOUS before `secrets reencrypt` finished) are a warning: those
 * endpoints fail alone, as they did before this check (ADR 0049).
 */
export async function checkEncryptionKey(sql: SqlOrTx, config: Pick<Config, "ENCRYPTION_KEY" | "ENCRYPTION_KEYS_PREVIOUS">): Promise<void> {
  // The key id is a ciphertext's second part (`v1.<key id>.…`), in a broker target's sealed URL too.
  const rows = await sql<{ keyId: string }[]>`
    select key_id as "keyId" from endpoint_secrets
    union select key_id from alert_channels
    union select split_part(target ->> 'url_ciphertext', '.', 2) from endpoints where target ? 'url_ciphertext'`;
  const stored = rows.map((r) => r.keyId);
  if (stored.length === 0) return;
  const configured = decryptionKeys(config).map(keyIdOf);
  const unknown = stored.filter((id) => !configured.includes(id));
  if (unknown.length === stored.length) {
    throw new WrongEncryptionKeyError(
      `ENCRYPTION_KEY does not match this database: its secrets are encrypted under key id ${stored.join(", ")}, and ENCRYPTION_KEY` +
        `${config.ENCRYPTION_KEYS_PREVIOUS.length > 0 ? " and ENCRYPTION_KEYS_PREVIOUS have" : " has"} key id ${configured.join(", ")}.\n` +
        "Start with the ENCRYPTION_KEY this database was written with (after a restore: the key of the installation the backup came from). " +
        "To change keys, set the new one as ENCRYPTION_KEY and the old one in ENCRYPTION_KEYS_PREVIOUS, then run `npm run cli -- secrets reencrypt`.",
    );
  }
  if (unknown.length > 0) {
    logger.warn("some stored secrets are under a key neither ENCRYPTION_KEY nor ENCRYPTION_KEYS_PREVIOUS holds: their endpoints' deliveries fail secret_unavailable", {
      unknown_key_ids: unknown,
    });
  }
}
