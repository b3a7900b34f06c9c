import { randomBytes } from "node:crypto";
import { sha256Hex } from "../crypto/encryption";

export const RECOVERY_CODE_COUNT = 10;

// Crockford base32: no I, L, O or U to misread when copied from paper.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** `xxxxx-xxxxx`: 50 random bits each, too many to guess within the sign-in limits. */
function recoveryCode(): string {
  const chars = [...randomBytes(10)].map((byte) => ALPHABET[byte % 32]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export const newRecoveryCodes = (): string[] => Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);

/**
 * What is stored and compared: the code as typed, case, spaces and dashes aside. A plain SHA-256
 * suffices — the codes are random and long, unlike passwords, so there is nothing to slow down.
 */
export const hashRecoveryCode = (code: string): string => sha256Hex(code.toLowerCase().replace(/[\s-]/g, ""));
