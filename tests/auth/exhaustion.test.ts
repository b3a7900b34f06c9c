import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../lib/crypto/encryption";
import { getDb } from "../../lib/db/client";
import { ConcurrencyGate, GateFullError, createOperator, signInOperator, type SignInResult } from "../../lib/operators";
import { passwordChecks } from "../../lib/operators/password";
import { apiClient, call } from "../helpers/api";
import { withEnv } from "../helpers/env";
import { createConsumer } from "../helpers/fixtures";
import { mintPortalLink } from "../helpers/portal";
import { systemCtx } from "../../lib/open-ctx";

/** What an anonymous client can make the server spend: database work on guessed link tokens, scrypt on sign-ins. */

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("the portal token exchange", () => {
  it("is under the failed-authentication limit of bearer tokens: over it, 429 before any database work, for that client only", async () => {
    const api = await apiClient();
    const { uid } = await createConsumer(api);
    const mint = () => mintPortalLink(api, uid);
    const exchange = (token: string, address: string) =>
      call("POST", "/api/v1/portal/session", { body: { token }, headers: { "x-forwarded-for": address } });

    await withEnv({ TRUST_PROXY: "true", API_AUTH_FAILURES_PER_MINUTE: "3" }, async () => {
      const attacker = "198.51.100.66";
      for (let i = 0; i < 3; i++) {
        const guess = await exchange(`pt_guess${i}`, attacker);
        expect(guess.status).toBe(401);
        expect(guess.body.code).toBe("invalid_token");
      }
      const valid = await mint();
      const refused = await exchange(valid, attacker);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect(refused.body.code).toBe("rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // Even a valid, unused token is refused from there, and is still unused: the answer came
      // before the UPDATE that spends a token (the exchange's first query), so a guess over the
      // limit costs no database work — and one-time tokens have no "known token" way past it.
      const [row] = await getDb().execute<{ used_at: string | null }>(sql`select used_at from portal_tokens where token_hash = ${sha256Hex(valid)}`);
      expect(row).toEqual({ used_at: null });
      // One bucket per client for every kind of token: the guessed link tokens cost bearer tokens too.
      expect((await call("GET", "/api/v1/consumers", { key: "sk_unknown", headers: { "x-forwarded-for": attacker } })).status).toBe(429);
      // Another client is not affected: the same token works from there.
      const other = await exchange(valid, "203.0.113.9");
      expect(other.status, other.text).toBe(201);
      expect(other.body.session_token).toMatch(/^ps_/);
    });
  });
});

describe("ConcurrencyGate", () => {
  it("runs K at once, queues Q, refuses the next at once without running it, and hands each freed slot to the longest waiting", async () => {
    const gate = new ConcurrencyGate(2, 2);
    const started: number[] = [];
    const begun = Array.from({ length: 5 }, () => deferred());
    const finish = Array.from({ length: 5 }, () => deferred());
    const job = (i: number) =>
      gate.run(async () => {
        started.push(i);
        begun[i]!.resolve();
        await finish[i]!.promise;
        return i;
      });

    const runs = [0, 1, 2, 3].map(job);
    expect(started).toEqual([0, 1]);
    let ran = false;
    await expect(gate.run(async () => (ran = true))).rejects.toBeInstanceOf(GateFullError);
    expect(ran).toBe(false);

    finish[0]!.resolve();
    expect(await runs[0]).toBe(0);
    await begun[2]!.promise;
    expect(started).toEqual([0, 1, 2]);
    // Its place in the queue is free again: a newcomer waits (behind 3), one more is refused.
    const late = job(4);
    await expect(gate.run(async () => (ran = true))).rejects.toBeInstanceOf(GateFullError);
    expect(ran).toBe(false);

    // A failing job frees its slot as well.
    finish[1]!.reject(new Error("boom"));
    await expect(runs[1]).rejects.toThrow("boom");
    await begun[3]!.promise;
    expect(started).toEqual([0, 1, 2, 3]);
    finish[2]!.resolve();
    await begun[4]!.promise;
    expect(started).toEqual([0, 1, 2, 3, 4]);
    finish[3]!.resolve();
    finish[4]!.resolve();
    expect(await Promise.all([runs[2], runs[3], late])).toEqual([2, 3, 4]);

    // Every slot is back: two start at once again (a queued one would not have started yet).
    let startedAgain = 0;
    const again = deferred();
    const both = [0, 1].map(() =>
      gate.run(() => {
        startedAgain += 1;
        return again.promise;
      }),
    );
    expect(startedAgain).toBe(2);
    again.resolve();
    await Promise.all(both);
  });
});

describe("sign-in password checks", () => {
  it("answer rate_limited past the queue of the password-check gate, and the owner signs in after the burst", async () => {
    const PASSWORD = "correct horse battery";
    await createOperator({ ctx: systemCtx(), input: { email: "owner@example.com", password: PASSWORD, role: "admin" } });
    const { maxRunning, maxWaiting } = passwordChecks;
    // Every slot taken, as by checks already running. Held by the test rather than by real scrypt
    // work, so how many of the burst find the queue full does not depend on how fast scrypt is.
    const release = deferred();
    const running = Array.from({ length: maxRunning }, () => passwordChecks.run(() => release.promise));

    const extra = 5;
    let answered = 0;
    let refused = 0;
    const enoughRefused = deferred();
    const burst = Array.from({ length: maxWaiting + extra }, (_, i) =>
      signInOperator({ ctx: systemCtx(), input: { email: `flood${i}@example.com`, password: "guess", address: null } }).then((result: SignInResult) => {
        answered += 1;
        if (!result.ok && result.reason === "rate_limited" && ++refused === extra) enoughRefused.resolve();
        return result;
      }),
    );
    await enoughRefused.promise;
    // The others are in the queue, unanswered, until a slot frees up.
    expect(answered).toBe(extra);
    release.resolve();
    await Promise.all(running);
    const results = await Promise.all(burst);
    expect(results.filter((r) => !r.ok && r.reason === "rate_limited")).toEqual(Array(extra).fill({ ok: false, reason: "rate_limited", retryAfterSeconds: 1 }));
    expect(results.filter((r) => !r.ok && r.reason === "invalid")).toHaveLength(maxWaiting);

    expect(await signInOperator({ ctx: systemCtx(), input: { email: "owner@example.com", password: PASSWORD, address: null } })).toMatchObject({
      ok: true,
      operator: { email: "owner@example.com" },
    });
  });
});
