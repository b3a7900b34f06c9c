import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { Config } from "../config";

/** Every key the configuration can decrypt with: the current one first, then retired ones. */
export function decryptionKeys(config: Pick<Config, "ENCRYPTION_KEY" | "ENCRYPTION_KEYS_PREVIOUS">): Buffer[] {
  return [config.ENCRYPTION_KEY, ...config.ENCRYPTION_KEYS_PREVIOUS];
}

/** A short, stable name for a key, stored beside each ciphertext so keys can be rotated. */
export function keyIdOf(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 12);
}

/** AES-256-GCM. Output: `v1.<key id>.<iv>.<tag>.<ciphertext>`, parts base64url. */
export function encrypt(plaintext: string, key: Buffer): { ciphertext: string; keyId: string } {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const keyId = keyIdOf(key);
  const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64url"));
  return { ciphertext: `v1.${keyId}.${parts.join(".")}`, keyId };
}

/** Decrypts with whichever of `keys` the ciphertext names; throws if none matches or it was altered. */
export function decrypt(ciphertext: string, keys: Buffer[]): string {
  const [version, keyId, iv, tag, body] = ciphertext.split(".");
  if (version !== "v1" || !keyId || iv === undefined || tag === undefined || body === undefined) {
    throw new Error("Unrecognised ciphertext format");
  }
  const key = keys.find((k) => keyIdOf(k) === keyId);
  if (!key) throw new Error(`No encryption key with id ${keyId} is configured`);
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
