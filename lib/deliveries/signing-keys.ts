import { decrypt } from "../crypto/encryption";
import type { SqlOrTx } from "../db/client";

// Ciphertext → plaintext. A ciphertext is immutable, so caching it can never serve a stale secret;
// which secrets are active is still read from the database for every claim.
const cache = new Map<string, string>();
const CACHE_LIMIT = 10_000;

function decryptCached(ciphertext: string, keys: Buffer[]): string {
  let secret = cache.get(ciphertext);
  if (secret === undefined) {
    secret = decrypt(ciphertext, keys);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(ciphertext, secret);
  }
  return secret;
}

/**
 * The signing secrets of the endpoint `d.endpoint_id` right now, newest first, as ciphertexts: the
 * current one and any still in rotation overlap. Selected with the delivery rows themselves.
 */
export function activeSecretCiphertexts(tx: SqlOrTx) {
  return tx`webhook_admin_signing_secrets(d.endpoint_id)`;
}

/** null when a secret cannot be decrypted with the configured keys (one dropped too early). */
export function decryptSecrets(ciphertexts: string[], keys: Buffer[]): string[] | null {
  try {
    return ciphertexts.map((ciphertext) => decryptCached(ciphertext, keys));
  } catch {
    return null;
  }
}
