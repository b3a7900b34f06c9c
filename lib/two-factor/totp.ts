import { Secret, TOTP } from "otpauth";

/**
 * RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 s steps, a 160-bit secret
 * (RFC 4226's recommended length). One step either side is accepted, for a phone's clock a little
 * off and a code typed as it turned over.
 */
const PERIOD = 30;
const WINDOW = 1;
const ISSUER = "Webhook Admin";

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

function totp(secret: string, label = ""): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });
}

/** The otpauth:// URI a QR code carries: the app shows the issuer and the operator's email. */
export const totpUri = (secret: string, email: string): string => totp(secret, email).toString();

/** A code in the window around `now`: the time step it belongs to (for the replay check), or null. */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
}
