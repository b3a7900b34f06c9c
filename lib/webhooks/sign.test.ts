import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { describe, expect, it } from "vitest";
import { generateSecret, isValidSecret, secretKeyBytes, signPayload, signatureHeader } from "./sign";

// The Standard Webhooks specification's published vector (also in Svix's manual-verification docs).
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

describe("Standard Webhooks signing", () => {
  it("reproduces the spec vector from a whsec_ secret", () => {
    expect(signPayload(secretKeyBytes(VECTOR.secret), VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it("reproduces the spec vector from the bare base64 secret", () => {
    expect(signPayload(secretKeyBytes(VECTOR.secret.slice(6)), VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it("signs with every key, space-separated, and the official libraries accept either key", () => {
    const current = generateSecret();
    const previous = generateSecret();
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader([current, previous].map(secretKeyBytes), "msg_1", now, '{"a":1}');
    expect(header.split(" ")).toHaveLength(2);
    const headers = { "webhook-id": "msg_1", "webhook-timestamp": String(now), "webhook-signature": header };
    for (const secret of [current, previous]) {
      expect(new StandardWebhook(secret).verify('{"a":1}', headers)).toEqual({ a: 1 });
      expect(new SvixWebhook(secret).verify('{"a":1}', headers)).toEqual({ a: 1 });
    }
    expect(() => new StandardWebhook(generateSecret()).verify('{"a":1}', headers)).toThrow();
    expect(() => new SvixWebhook(current).verify('{"a":2}', headers)).toThrow();
  });

  it("generates 24-byte whsec_ secrets and validates secret shape", () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(secretKeyBytes(secret)).toHaveLength(24);
    expect(isValidSecret(secret)).toBe(true);
    expect(isValidSecret("whsec_c2hvcnQ=")).toBe(false);
    expect(isValidSecret("sk_" + secret.slice(6))).toBe(false);
    expect(isValidSecret("whsec_not base64!!")).toBe(false);
  });
});
