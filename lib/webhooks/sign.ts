import { createHmac, randomBytes } from "node:crypto";

const SECRET_PREFIX = "whsec_";

/** `whsec_` + base64 of 24 random bytes (192 bits), the Standard Webhooks secret form. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString("base64");
}

export function isValidSecret(secret: string): boolean {
  if (!secret.startsWith(SECRET_PREFIX)) return false;
  const raw = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) return false;
  const bytes = Buffer.from(raw, "base64").length;
  // 75: the longest Svix takes (100 base64 characters), so imported secrets fit.
  return bytes >= 24 && bytes <= 75;
}

export function secretKeyBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}

/** One Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`. */
export function signPayload(key: Buffer, id: string, timestamp: number, body: string): string {
  return "v1," + createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest("base64");
}

/** The `webhook-signature` header value: one signature per active secret, space-separated. */
export function signatureHeader(keys: Buffer[], id: string, timestamp: number, body: string): string {
  return keys.map((key) => signPayload(key, id, timestamp, body)).join(" ");
}
