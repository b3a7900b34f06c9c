import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../lib/crypto/encryption";
import { getDb, getSql } from "../../lib/db/client";
import { ConcurrencyGate, GateFullError, createOperator, signInOperator, type SignInResult } from "../../lib/operators";
import { signInsPerClient } from "../../lib/operators/checks-per-client";
import { passwordChecks } from "../../lib/operators/password";
import { sendSignInLink } from "../../lib/auth/email-link";
import { apiClient, call } from "../helpers/api";
import { withEnv } from "../helpers/env";
import { waitFor } from "../helpers/receiver";
import { startSmtpServer } from "../helpers/smtp";
import { createConsumer } from "../helpers/fixtures";
import { holdTransaction } from "../helpers/held-transaction";
import { linkToken, mintPortalLink } from "../helpers/portal";
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

/** Resolves once some connection waits for a lock on `table`; `stop()` ends the watch. */
function lockWaiter(table: string) {
  let stopped = false;
  const seen = (async () => {
    while (!stopped) {
      const [row] = await getSql()<{ n: number }[]>`select count(*)::int as n from pg_locks where not granted and relation = ${table}::regclass`;
      if (row!.n > 0) return `a request waited for ${table}`;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return "stopped";
  })();
  return { seen, stop: () => (stopped = true) };
}

// First in the file: before the fix, a refused request's first lookup was a fresh read of every
// active credential's hash (then cached for a second), which the lock below would catch.
describe("failed-authentication buckets", () => {
  it("without TRUST_PROXY, are per token: nobody's bad tokens refuse another's valid link, Svix url or key", async () => {
    const api = await apiClient();
    const { uid } = await createConsumer(api);
    await withEnv({ TRUST_PROXY: undefined, API_AUTH_FAILURES_PER_MINUTE: "3" }, async () => {
      const exchange = (token: string) => call("POST", "/api/v1/portal/session", { body: { token } });
      // Far more bad tokens, of both kinds, than one bucket holds: each is refused for itself only.
      for (let i = 0; i < 6; i++) {
        expect((await call("GET", "/api/v1/consumers", { key: `sk_bad${i}` })).status).toBe(401);
        expect((await exchange(`pt_bad${i}`)).status).toBe(401);
      }
      // Repeating one bad token is still limited, on its own bucket.
      for (let i = 0; i < 2; i++) expect((await exchange("pt_bad0")).status).toBe(401);
      expect((await exchange("pt_bad0")).status).toBe(429);
      for (let i = 0; i < 2; i++) expect((await call("GET", "/api/v1/consumers", { key: "sk_bad0" })).status).toBe(401);
      expect((await call("GET", "/api/v1/consumers", { key: "sk_bad0" })).status).toBe(429);

      const link = await exchange(await mintPortalLink(api, uid));
      expect(link.status, link.text).toBe(201);
      const svix = await call("POST", `/api/v1/auth/app-portal-access/${uid}`, { key: api.key, body: {} });
      expect(svix.status, svix.text).toBe(200);
      const viaSvix = await exchange(linkToken(svix.body.url));
      expect(viaSvix.status, viaSvix.text).toBe(201);
      const fresh = await apiClient();
      expect((await fresh.get("/api/v1/consumers")).status).toBe(200);
    });
  });

  it("refuse a client over its limit without reading any credential from the database", async () => {
    await withEnv({ TRUST_PROXY: "true", API_AUTH_FAILURES_PER_MINUTE: "3" }, async () => {
      const from = { "x-forwarded-for": "198.51.100.77" };
      for (let i = 0; i < 3; i++) expect((await call("GET", "/api/v1/consumers", { key: `sk_flood${i}`, headers: from })).status).toBe(401);
      // Credentials locked: any read of them would wait, and the watcher would see it.
      const held = await holdTransaction((tx) => tx`lock table api_keys, portal_sessions in access exclusive mode`);
      const waiter = lockWaiter("api_keys");
      try {
        const answer = await Promise.race([call("GET", "/api/v1/consumers", { key: "sk_flood_next", headers: from }), waiter.seen]);
        expect(typeof answer === "string" ? answer : answer.status).toBe(429);
      } finally {
        waiter.stop();
        await held.commit();
      }
    });
  });
});

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
  const PASSWORD = "correct horse battery";
  const signIn = (email: string, password: string, address: string | null) => signInOperator({ ctx: systemCtx(), input: { email, password, address } });

  /**
   * Every slot of the password gate taken, as by checks already running: held by the test rather
   * than by real scrypt work, so how many of a burst find the queue full does not depend on how
   * fast scrypt is.
   */
  function holdSlots() {
    const release = deferred();
    const running = Array.from({ length: passwordChecks.maxRunning }, () => passwordChecks.run(() => release.promise));
    return async () => {
      release.resolve();
      await Promise.all(running);
    };
  }

  /** `n` sign-ins at once, and once each is answered or in line for a slot, how many were answered. */
  async function burst(n: number, attempt: (i: number) => Promise<SignInResult>) {
    let answered = 0;
    const results = Array.from({ length: n }, (_, i) => attempt(i).finally(() => (answered += 1)));
    await expect.poll(() => answered + passwordChecks.waiting).toBe(n);
    return { answered, waiting: passwordChecks.waiting, results: () => Promise.all(results) };
  }

  it("answer rate_limited past the queue, keep places for operators' emails, and the link still works: a flood of made-up emails keeps nobody out", async () => {
    await createOperator({ ctx: systemCtx(), input: { email: "owner@example.com", password: PASSWORD, role: "admin" } });
    const { maxWaiting, reservedWaiting } = passwordChecks;
    const releaseSlots = holdSlots();
    // No TRUST_PROXY: nothing tells the flood's clients apart. Made-up emails may fill the line up
    // to its reserved places, no further.
    const extra = 5;
    const flood = await burst(maxWaiting + extra, (i) => signIn(`flood${i}@example.com`, "guess", null));
    // The others are in the queue, unanswered, until a slot frees up.
    expect(flood).toMatchObject({ answered: reservedWaiting + extra, waiting: maxWaiting - reservedWaiting });
    // The owner's email takes a kept place: in line, not refused.
    const owner = signIn("owner@example.com", PASSWORD, null);
    // And the sign-in link is mailed meanwhile: it never waits for the password gate.
    const smtp = await startSmtpServer();
    try {
      await withEnv({ SMTP_URL: smtp.url }, async () => {
        await sendSignInLink({ identifier: "owner@example.com", url: "http://127.0.0.1/api/auth/callback/email?token=t", request: new Request("http://127.0.0.1/api/auth/signin/email") });
        await waitFor(() => smtp.to("owner@example.com").length === 1, { what: "the sign-in link's mail" });
      });
    } finally {
      await smtp.close();
    }
    await releaseSlots();
    const results = await flood.results();
    expect(results.filter((r) => !r.ok && r.reason === "rate_limited")).toEqual(Array(reservedWaiting + extra).fill({ ok: false, reason: "rate_limited", retryAfterSeconds: 1 }));
    expect(results.filter((r) => !r.ok && r.reason === "invalid")).toHaveLength(maxWaiting - reservedWaiting);
    expect(await owner).toMatchObject({ ok: true, operator: { email: "owner@example.com" } });
  });

  it("bound each known client: its flood is refused at once and leaves the line to others", async () => {
    await createOperator({ ctx: systemCtx(), input: { email: "admin@example.com", password: PASSWORD, role: "admin" } });
    // The per-address count in the database would stop the flood only after it filled the line.
    await withEnv({ LOGIN_MAX_FAILURES_PER_ADDRESS: "100000" }, async () => {
      const releaseSlots = holdSlots();
      const n = passwordChecks.maxWaiting + 8;
      const perClient = signInsPerClient.perClient;
      const flood = await burst(n, (i) => signIn(`random${i}@example.com`, "guess", "198.51.100.40"));
      expect(flood).toMatchObject({ answered: n - perClient, waiting: perClient });
      // Another client, even with a made-up email, is still let in line; so is the admin.
      const other = signIn("someone@example.com", "guess", "203.0.113.40");
      const admin = signIn("admin@example.com", PASSWORD, "203.0.113.41");
      await releaseSlots();
      expect((await flood.results()).filter((r) => r.ok === false && r.reason === "invalid")).toHaveLength(perClient);
      expect(await other).toEqual({ ok: false, reason: "invalid" });
      expect(await admin).toMatchObject({ ok: true, operator: { email: "admin@example.com" } });
    });
  });
});
