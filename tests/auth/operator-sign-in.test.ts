import { eq } from "drizzle-orm";
import { inspect } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { getDb } from "../../lib/db/client";
import { loginFailures, operators } from "../../lib/db/schema";
import { countPasswordAttempt, createOperator, passwordDelayMs, signInOperator } from "../../lib/operators";
import { sendSignInLink } from "../../lib/auth/email-link";
import { signInsPerClient } from "../../lib/operators/checks-per-client";
import { TooManySignIns } from "../../lib/auth/too-many-sign-ins";
import { withEnv } from "../helpers/env";
import { waitFor } from "../helpers/receiver";
import { startSmtpServer } from "../helpers/smtp";
import { systemCtx } from "../../lib/open-ctx";

const PASSWORD = "correct horse battery";
const system = () => (systemCtx());

beforeAll(async () => {
  process.env.LOGIN_MAX_FAILURES_PER_EMAIL = "3";
  process.env.LOGIN_MAX_FAILURES_PER_ADDRESS = "6";
  process.env.LOGIN_FAILURE_WINDOW = "15m";
  resetConfigForTests();
  for (const email of ["a@example.com", "b@example.com", "c@example.com", "d@example.com"]) {
    await createOperator({ ctx: system(), input: { email, password: PASSWORD, role: "admin" } });
  }
});

const signIn = (email: string, password: string, address = "203.0.113.1") => signInOperator({ ctx: systemCtx(), input: { email, password, address } });

describe("operator sign-in", () => {
  it("accepts the right password (email case-insensitive) and stores only a scrypt hash", async () => {
    const result = await signIn("A@Example.com", PASSWORD, "198.51.100.7");
    expect(result).toMatchObject({ ok: true, operator: { email: "a@example.com", role: "admin" } });
    const [row] = await getDb().select().from(operators).where(eq(operators.email, "a@example.com"));
    expect(row!.passwordHash).toMatch(/^scrypt\$/);
    expect(row!.passwordHash).not.toContain(PASSWORD);
  });

  it("refuses a wrong password and an unknown email alike", async () => {
    expect(await signIn("b@example.com", "wrong password", "198.51.100.8")).toEqual({ ok: false, reason: "invalid" });
    expect(await signIn("nobody@example.com", PASSWORD, "198.51.100.8")).toEqual({ ok: false, reason: "invalid" });
  });

  it("locks an address out of an email after too many failures, even for the right password, while the owner elsewhere gets in after a delay", async () => {
    for (let i = 0; i < 3; i++) expect(await signIn("c@example.com", `guess ${i}`, "192.0.2.1")).toEqual({ ok: false, reason: "invalid" });
    const locked = await signIn("c@example.com", PASSWORD, "192.0.2.1");
    expect(locked).toMatchObject({ ok: false, reason: "rate_limited" });
    expect(locked.ok === false && locked.reason === "rate_limited" && locked.retryAfterSeconds).toBeGreaterThan(800);
    // The attacker's address counts for 3 at most (the limit: its refused attempts check nothing),
    // so the owner's is the email's 4th attempt, one past the limit: it waits 250 ms, then gets in.
    // (A lower bound on elapsed time only: timers never fire early by more than the clock's rounding.)
    const started = performance.now();
    expect(await signIn("c@example.com", PASSWORD, "192.0.2.99")).toMatchObject({ ok: true, operator: { email: "c@example.com" } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it("counts an address for at most the email's limit toward its delay, so a locked-out attacker cannot slow the owner further", async () => {
    for (let i = 0; i < 3; i++) expect(await signIn("j@example.com", `guess ${i}`, "192.0.2.7")).toEqual({ ok: false, reason: "invalid" });
    for (let i = 0; i < 5; i++) expect(await signIn("j@example.com", `more ${i}`, "192.0.2.7")).toMatchObject({ ok: false, reason: "rate_limited" });
    expect(await countPasswordAttempt({ ctx: systemCtx(), input: { email: "j@example.com", address: "192.0.2.8" } })).toEqual({ retryAfterSeconds: null, delayMs: 250 });
    expect(await countPasswordAttempt({ ctx: systemCtx(), input: { email: "J@example.com", address: null } })).toEqual({ retryAfterSeconds: null, delayMs: 500 });
  });

  it("locks nobody out when the address is unknown: past the email's limit each attempt waits longer, and the right password still gets in", async () => {
    await createOperator({ ctx: system(), input: { email: "h@example.com", password: PASSWORD, role: "admin" } });
    const anonymous = async (password: string) => {
      const started = performance.now();
      const result = await signInOperator({ ctx: systemCtx(), input: { email: "h@example.com", password, address: null } });
      return { result, ms: performance.now() - started };
    };
    for (let i = 0; i < 3; i++) expect((await anonymous(`guess ${i}`)).result).toEqual({ ok: false, reason: "invalid" });
    const fourth = await anonymous("guess 3");
    expect(fourth.result).toEqual({ ok: false, reason: "invalid" });
    expect(fourth.ms).toBeGreaterThanOrEqual(240);
    const owner = await anonymous(PASSWORD);
    expect(owner.result).toMatchObject({ ok: true, operator: { email: "h@example.com" } });
    expect(owner.ms).toBeGreaterThanOrEqual(490);
    // The success cleared the email's count.
    expect(await getDb().select().from(loginFailures).where(eq(loginFailures.email, "h@example.com"))).toEqual([]);
  });

  it("keeps mailing the sign-in link while the email's passwords are over the limit", async () => {
    await createOperator({ ctx: system(), input: { email: "i@example.com", password: PASSWORD, role: "admin" } });
    for (let i = 0; i < 4; i++) expect(await signInOperator({ ctx: systemCtx(), input: { email: "i@example.com", password: `guess ${i}`, address: null } })).toEqual({ ok: false, reason: "invalid" });
    const smtp = await startSmtpServer();
    try {
      await withEnv({ SMTP_URL: smtp.url }, async () => {
        await sendSignInLink({
          identifier: "i@example.com",
          url: "http://127.0.0.1/api/auth/callback/email?token=t&callbackUrl=%2Fdashboard",
          request: new Request("http://127.0.0.1/api/auth/signin/email"),
        });
        await waitFor(() => smtp.to("i@example.com").length === 1, { what: "the sign-in link's mail" });
      });
    } finally {
      await smtp.close();
    }
    expect(smtp.to("i@example.com")[0]!.mail.text).toContain("/api/auth/callback/email?token=t");
  });

  it("delays attempts past the email's limit by 250 ms, doubling each time, at most 30 s", () => {
    expect([1, 3, 4, 5, 6, 7, 10, 11, 12, 5000].map((n) => passwordDelayMs(n, 3))).toEqual([0, 0, 250, 500, 1000, 2000, 16_000, 30_000, 30_000, 30_000]);
    expect(passwordDelayMs(5, 5)).toBe(0);
    expect(passwordDelayMs(6, 5)).toBe(250);
  });

  it("limits one address across many emails", async () => {
    const address = "203.0.113.50";
    for (let i = 0; i < 6; i++) expect((await signIn(`spray${i}@example.com`, "x", address)).ok).toBe(false);
    expect(await signIn("d@example.com", PASSWORD, address)).toMatchObject({ ok: false, reason: "rate_limited" });
    expect((await signIn("d@example.com", PASSWORD, "203.0.113.51")).ok).toBe(true);
  });

  it("without a trusted address limits per email only, so a spray cannot lock everyone out", async () => {
    for (let i = 0; i < 10; i++) expect(await signInOperator({ ctx: systemCtx(), input: { email: `anon${i}@example.com`, password: "x", address: null } })).toEqual({ ok: false, reason: "invalid" });
    await createOperator({ ctx: system(), input: { email: "g@example.com", password: PASSWORD, role: "admin" } });
    expect((await signInOperator({ ctx: systemCtx(), input: { email: "g@example.com", password: PASSWORD, address: null } })).ok).toBe(true);
  });

  it("clears an email's count on success, so a typo now and then never locks anyone out", async () => {
    await createOperator({ ctx: system(), input: { email: "e@example.com", password: PASSWORD, role: "viewer" } });
    for (let round = 0; round < 3; round++) {
      expect((await signIn("e@example.com", "typo", "198.51.100.20")).ok).toBe(false);
      expect((await signIn("e@example.com", "typo", "198.51.100.20")).ok).toBe(false);
      expect((await signIn("e@example.com", PASSWORD, "198.51.100.20")).ok).toBe(true);
    }
    expect(await getDb().select().from(loginFailures).where(eq(loginFailures.email, "e@example.com"))).toEqual([]);
  });

  it("lets a burst from one address have only a few sign-ins in progress, refusing the rest before counting or checking them", async () => {
    await createOperator({ ctx: system(), input: { email: "f@example.com", password: PASSWORD, role: "admin" } });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => signIn("f@example.com", `burst ${i}`, "10.9.0.1")));
    const { perClient } = signInsPerClient;
    expect(results.filter((r) => !r.ok && r.reason === "invalid").length).toBeLessThanOrEqual(perClient);
    expect(results.filter((r) => !r.ok && r.reason === "rate_limited").length).toBeGreaterThanOrEqual(10 - perClient);
    // Guessing on one at a time, the address is locked out of the email past the limit (3).
    for (let i = 0; i < 3; i++) await signIn("f@example.com", `more ${i}`, "10.9.0.1");
    expect(await signIn("f@example.com", PASSWORD, "10.9.0.1")).toMatchObject({ ok: false, reason: "rate_limited" });
  });

  it("refuses a sign-in link over the limit with a rejection handled from the start: Auth.js awaits it only after a hash", async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", record);
    try {
      const ask = () =>
        sendSignInLink({ identifier: "link@example.com", url: "http://127.0.0.1/api/auth/callback/email?token=t", request: new Request("http://127.0.0.1/api/auth/signin/email") });
      for (let i = 0; i < 3; i++) await ask();
      // Nothing attached to it here, as Auth.js attaches nothing until its hash is done.
      const refused = ask();
      await waitFor(() => inspect(refused).includes("<rejected>"), { what: "the refusal" });
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      await expect(refused).rejects.toBeInstanceOf(TooManySignIns);
    } finally {
      process.off("unhandledRejection", record);
    }
  });
});
