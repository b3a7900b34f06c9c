import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery-codes";
import { newTotpSecret, totpStep, totpUri } from "./totp";

// Codes made by the library itself, as an authenticator app would, at fixed instants.
const secret = newTotpSecret();
const app = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
const now = Date.UTC(2026, 11, 6, 12, 0, 15); // the middle of a step
const step = Math.floor(now / 30_000);
const codeAt = (offsetSteps: number) => app.generate({ timestamp: now + offsetSteps * 30_000 });

describe("totpStep", () => {
  it("takes this step's code, and one step either side, naming its step", () => {
    expect(totpStep(secret, codeAt(0), now)).toBe(step);
    expect(totpStep(secret, codeAt(-1), now)).toBe(step - 1);
    expect(totpStep(secret, codeAt(1), now)).toBe(step + 1);
  });

  it("refuses codes two steps away, wrong codes and anything not six digits", () => {
    for (const offset of [-2, 2]) {
      const code = codeAt(offset);
      // A code two steps away may equal one within the window by chance (1 in a million).
      if (![-1, 0, 1].some((near) => codeAt(near) === code)) expect(totpStep(secret, code, now)).toBeNull();
    }
    const wrong = String((Number(codeAt(0)) + 1) % 1_000_000).padStart(6, "0");
    if (![-1, 0, 1].some((near) => codeAt(near) === wrong)) expect(totpStep(secret, wrong, now)).toBeNull();
    for (const junk of ["", "12345", "1234567", "abcdef", `${codeAt(0)} `]) expect(totpStep(secret, junk, now)).toBeNull();
  });

  it("describes the secret as authenticator apps read it", () => {
    const uri = new URL(totpUri(secret, "ops@example.com"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/Webhook Admin:ops@example.com");
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({ secret, issuer: "Webhook Admin", algorithm: "SHA1", digits: "6", period: "30" });
    expect(Secret.fromBase32(secret).bytes.length).toBe(20);
  });
});

describe("recovery codes", () => {
  it("are ten distinct codes of 50 random bits, hashed as typed whatever the case, spaces and dashes", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
    const [code] = codes as [string];
    expect(hashRecoveryCode(` ${code.toUpperCase().replace("-", " - ")} `)).toBe(hashRecoveryCode(code));
    expect(hashRecoveryCode(code)).not.toContain(code.replace("-", ""));
  });
});
