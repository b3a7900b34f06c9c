import { eq, sql } from "drizzle-orm";
import { inspect } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../lib/config";
import { getDb } from "../lib/db/client";
import { loginFailures, operators } from "../lib/db/schema";
import { createOperator, signInOperator } from "../lib/operators";
import { sendSignInLink } from "../lib/auth/email-link";
import { TooManySignIns } from "../lib/auth/too-many-sign-ins";
import { waitFor } from "./helpers/receiver";

const PASSWORD = "correct horse battery";
const system = () => ({ actor: { type: "system" as const }, db: getDb() });

beforeAll(async () => {
  process.env.LOGIN_MAX_FAILURES_PER_EMAIL = "3";
  process.env.LOGIN_MAX_FAILURES_PER_ADDRESS = "6";
  process.env.LOGIN_FAILURE_WINDOW = "15m";
  resetConfigForTests();
  for (const email of ["a@example.com", "b@example.com", "c@example.com", "d@example.com"]) {
    await createOperator({ ctx: system(), input: { email, password: PASSWORD, role: "admin" } });
  }
});

const signIn = (email: string, password: string, address = "203.0.113.1") => signInOperator(getDb(), { email, password, address });

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

  it("locks an email after too many failures, even for the right password, from any address", async () => {
    for (let i = 0; i < 3; i++) expect((await signIn("c@example.com", `guess ${i}`, `192.0.2.${i}`)).ok).toBe(false);
    const locked = await signIn("c@example.com", PASSWORD, "192.0.2.99");
    expect(locked).toMatchObject({ ok: false, reason: "rate_limited" });
    expect(locked.ok === false && locked.reason === "rate_limited" && locked.retryAfterSeconds).toBeGreaterThan(800);
    // Once the failures leave the window, the right password works again.
    await getDb().execute(sql`update login_failures set created_at = created_at - interval '16 minutes' where email = 'c@example.com'`);
    expect((await signIn("c@example.com", PASSWORD, "192.0.2.99")).ok).toBe(true);
  });

  it("limits one address across many emails", async () => {
    const address = "203.0.113.50";
    for (let i = 0; i < 6; i++) expect((await signIn(`spray${i}@example.com`, "x", address)).ok).toBe(false);
    expect(await signIn("d@example.com", PASSWORD, address)).toMatchObject({ ok: false, reason: "rate_limited" });
    expect((await signIn("d@example.com", PASSWORD, "203.0.113.51")).ok).toBe(true);
  });

  it("without a trusted address limits per email only, so a spray cannot lock everyone out", async () => {
    for (let i = 0; i < 10; i++) expect(await signInOperator(getDb(), { email: `anon${i}@example.com`, password: "x", address: null })).toEqual({ ok: false, reason: "invalid" });
    await createOperator({ ctx: system(), input: { email: "g@example.com", password: PASSWORD, role: "admin" } });
    expect((await signInOperator(getDb(), { email: "g@example.com", password: PASSWORD, address: null })).ok).toBe(true);
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

  it("counts parallel guesses before checking any, so a burst cannot slip under the limit", async () => {
    await createOperator({ ctx: system(), input: { email: "f@example.com", password: PASSWORD, role: "admin" } });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => signIn("f@example.com", `burst ${i}`, `10.9.0.${i}`)));
    expect(results.filter((r) => !r.ok && r.reason === "invalid").length).toBeLessThanOrEqual(3);
    expect(await signIn("f@example.com", PASSWORD, "10.9.0.200")).toMatchObject({ ok: false, reason: "rate_limited" });
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
