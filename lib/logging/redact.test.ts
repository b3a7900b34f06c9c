import { describe, expect, it } from "vitest";
import { redact, redactString } from "./redact";

describe("log redaction", () => {
  it("replaces secrets by their shape anywhere in a string, keeping the prefix", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    expect(redactString(`signing with ${secret}.`)).toBe("signing with whsec_[redacted].");
    expect(redactString("Bearer sk_AbCdEfGhIjKlMnOpQrStUvWx_-12")).toBe("Bearer sk_[redacted]");
    expect(redactString("ps_abcdefghijkl pt_abcdefghijkl")).toBe("ps_[redacted] pt_[redacted]");
    // Ids and words that merely contain the letters stay.
    expect(redactString("task_identifier ptk_01abc pss_01abc whs_01abc sk_short")).toBe("task_identifier ptk_01abc pss_01abc whs_01abc sk_short");
  });

  it("removes credentials from URLs: SMTP and database user:password, Slack hook paths", () => {
    expect(redactString("smtp://alerts:hunter2@mail.example:587")).toBe("smtp://[redacted]@mail.example:587");
    expect(redactString("connect postgres://app:s3cr3t@db:5432/wa failed")).toBe("connect postgres://[redacted]@db:5432/wa failed");
    expect(redactString("POST https://hooks.slack.com/services/T0/B0/xyz123 timed out")).toBe("POST https://hooks.slack.com/services/[redacted] timed out");
    expect(redactString("mail ops@acme.example")).toBe("mail ops@acme.example");
  });

  it("replaces credential fields by name at any depth, and an alert channel config's URL", () => {
    expect(
      redact({
        headers: { Authorization: "Basic abc", cookie: "a=b", "x-request-id": "r1" },
        channel: { kind: "slack", config: { webhook_url: "https://x/y", url: "https://z" } },
        config: { url: "https://teams.example/hook", room_id: "1" },
        url: "https://customer.example/hook",
        nested: [{ password: "p", secret: null }],
      }),
    ).toEqual({
      headers: { Authorization: "[redacted]", cookie: "[redacted]", "x-request-id": "r1" },
      channel: { kind: "slack", config: { webhook_url: "[redacted]", url: "[redacted]" } },
      config: { url: "[redacted]", room_id: "1" },
      url: "https://customer.example/hook",
      nested: [{ password: "[redacted]", secret: null }],
    });
  });

  it("turns an Error into its type, message and stack, redacted", () => {
    const out = redact({ error: new TypeError("bad key sk_0123456789abcdef") }) as { error: Record<string, string> };
    expect(out.error.type).toBe("TypeError");
    expect(out.error.message).toBe("bad key sk_[redacted]");
    expect(out.error.stack).not.toContain("0123456789abcdef");
  });
});
