import { Secret, TOTP } from "otpauth";
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { emailLinkConfig } from "../../lib/auth/email-link";
import { linkTicket, readLinkTicket } from "../../lib/auth/link-second-step";
import { resetConfigForTests } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { signInOperator, signInSecondStep } from "../../lib/operators";
import { systemCtx } from "../../lib/open-ctx";
import { apiClient, call, type Api } from "../helpers/api";
import { withEnv } from "../helpers/env";
import { operatorClient } from "../helpers/session";

/**
 * The second factor (TOTP, RFC 6238) end to end through the routes and sign-in, with codes made by
 * the library as an authenticator app makes them: enrollment and its confirmation, the code step
 * of password and link sign-ins (a replayed code refused, recovery codes once each, wrong codes
 * counted toward the sign-in limits), an admin's audited reset, and a factor required of everyone.
 */
const PASSWORD = "correct horse battery";
const sql = () => getSql();
let api: Api;

type Client = Awaited<ReturnType<typeof operatorClient>>;

/** What an authenticator app shows for this secret, `offsetSteps` 30-second steps from now. */
const codeFor = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

/**
 * Before assertions about which step a code falls in: a step with 10 s of it left, so that a code
 * made for "one step back" is not two steps back by the time the server reads it.
 */
async function stepWithTimeToSpare(): Promise<void> {
  const left = TOTP.remaining({ period: 30 });
  if (left < 10_000) await sleep(left + 50);
}

/** Enrolls and confirms a factor for the client's operator: its secret, the code that confirmed it, and the recovery codes. */
async function enroll(client: Client): Promise<{ secret: string; confirmedWith: string; recoveryCodes: string[] }> {
  const started = await client.post("/api/v1/two-factor/enrollment");
  expect(started.status, started.text).toBe(201);
  const confirmedWith = codeFor(started.body.secret);
  const confirmed = await client.post("/api/v1/two-factor/enrollment/confirm", { code: confirmedWith });
  expect(confirmed.status, confirmed.text).toBe(200);
  return { secret: started.body.secret, confirmedWith, recoveryCodes: confirmed.body.recovery_codes };
}

let address = 0;
/** A password sign-in from an address of its own, so the per-address limits of one test never reach another. */
const signIn = (email: string, code?: string, from = `198.51.100.${++address}`) => signInOperator({ ctx: systemCtx(), input: { email, password: PASSWORD, code, address: from } });

beforeAll(async () => {
  process.env.LOGIN_MAX_FAILURES_PER_EMAIL = "3";
  process.env.LOGIN_MAX_FAILURES_PER_ADDRESS = "50";
  resetConfigForTests();
  api = await apiClient();
});

describe("enrolling", () => {
  it("shows a new secret as a QR code and text once, keeps it sealed, and turns on only when a code confirms it", async () => {
    const me = await operatorClient("viewer");
    const started = await me.post("/api/v1/two-factor/enrollment");
    expect(started.status, started.text).toBe(201);
    const { secret, otpauth_uri: uri, qr_svg: svg } = started.body as { secret: string; otpauth_uri: string; qr_svg: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain(encodeURIComponent(me.operator.email));
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);

    const [row] = await sql()`select secret_ciphertext, confirmed_at from operator_two_factor where operator_id = ${me.operator.id}`;
    expect(row!.secret_ciphertext).toMatch(/^v1\./);
    expect(row!.secret_ciphertext).not.toContain(secret);
    expect(row!.confirmed_at).toBeNull();
    // Not on yet: the password alone still signs in.
    expect(await signIn(me.operator.email)).toMatchObject({ ok: true });
    expect((await me.get("/api/v1/two-factor")).body).toMatchObject({ enabled: false, recovery_codes_left: 0 });

    const wrong = await me.post("/api/v1/two-factor/enrollment/confirm", { code: "000000" === codeFor(secret) ? "111111" : "000000" });
    expect(wrong.status).toBe(422);
    const confirmed = await me.post("/api/v1/two-factor/enrollment/confirm", { code: codeFor(secret) });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.recovery_codes).toHaveLength(10);

    const status = await me.get("/api/v1/two-factor");
    expect(status.body).toMatchObject({ enabled: true, recovery_codes_left: 10, required: false });
    expect(status.text).not.toContain(secret);
    const [stored] = await sql()`select recovery_code_hashes from operator_two_factor where operator_id = ${me.operator.id}`;
    for (const code of confirmed.body.recovery_codes as string[]) expect(JSON.stringify(stored)).not.toContain(code.replace("-", ""));
    const [audit] = await sql()`select actor_id from audit_events where action = 'operator.two_factor_enabled' and target_id = ${me.operator.id}`;
    expect(audit?.actor_id).toBe(me.operator.id);

    // Never shown again: starting over is refused while the factor is on.
    const again = await me.post("/api/v1/two-factor/enrollment");
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("two_factor_enabled");
  });
});

describe("signing in with a password and a code", () => {
  it("answers code_needed for the password alone and signs in only with the right code; a replayed one is refused", async () => {
    const me = await operatorClient("admin");
    await stepWithTimeToSpare();
    const { secret, confirmedWith } = await enroll(me);
    expect(await signIn(me.operator.email)).toEqual({ ok: false, reason: "code_needed" });
    expect(await signIn(me.operator.email, confirmedWith)).toEqual({ ok: false, reason: "invalid_code" });
    // The next step's code is within the window, and later than the last one taken.
    expect(await signIn(me.operator.email, codeFor(secret, 1))).toMatchObject({ ok: true, operator: { id: me.operator.id } });
    expect(await signIn(me.operator.email, codeFor(secret, 1))).toEqual({ ok: false, reason: "invalid_code" });
    // An earlier step's code, even within the window, is older than the last one taken.
    expect(await signIn(me.operator.email, codeFor(secret, -1))).toEqual({ ok: false, reason: "invalid_code" });
  });

  it("takes a code from one step back (a slow clock) and refuses one two steps away", async () => {
    const me = await operatorClient("admin");
    const started = await me.post("/api/v1/two-factor/enrollment");
    const secret = started.body.secret as string;
    await stepWithTimeToSpare();
    expect((await me.post("/api/v1/two-factor/enrollment/confirm", { code: codeFor(secret, -1) })).status).toBe(200);
    // Again: the confirm may have taken the 10 s, and a step rolling over between making the code
    // and the server reading it would bring "two ahead" into the window.
    await stepWithTimeToSpare();
    const twoAhead = codeFor(secret, 2);
    // Unless it happens to equal a code within the window (one in a million).
    if (![-1, 0, 1].some((near) => codeFor(secret, near) === twoAhead)) expect(await signIn(me.operator.email, twoAhead)).toEqual({ ok: false, reason: "invalid_code" });
    expect(await signIn(me.operator.email, codeFor(secret))).toMatchObject({ ok: true });
  });

  it("takes each recovery code once, however it is typed", async () => {
    const me = await operatorClient("viewer");
    const { recoveryCodes } = await enroll(me);
    const [first, second] = recoveryCodes as [string, string];
    expect(await signIn(me.operator.email, first)).toMatchObject({ ok: true });
    expect(await signIn(me.operator.email, first)).toEqual({ ok: false, reason: "invalid_code" });
    expect(await signIn(me.operator.email, ` ${second.toUpperCase()} `)).toMatchObject({ ok: true });
    expect(await signIn(me.operator.email, "zzzzz-zzzzz")).toEqual({ ok: false, reason: "invalid_code" });
    expect((await me.get("/api/v1/two-factor")).body.recovery_codes_left).toBe(8);
  });

  it("counts wrong codes toward the sign-in limits: past them even the right code waits its turn", async () => {
    const me = await operatorClient("admin");
    const { secret } = await enroll(me);
    const from = "192.0.2.41";
    expect(await signIn(me.operator.email, undefined, from)).toEqual({ ok: false, reason: "code_needed" });
    expect(await signIn(me.operator.email, "000001", from)).toMatchObject({ ok: false });
    expect(await signIn(me.operator.email, "000002", from)).toMatchObject({ ok: false });
    const locked = await signIn(me.operator.email, codeFor(secret, 1), from);
    expect(locked).toMatchObject({ ok: false, reason: "rate_limited" });
  });
});

describe("signing in with a link and a code", () => {
  it("leaves a followed link a ticket, not a session, for an operator with a factor; the ticket and a code sign in", async () => {
    const me = await operatorClient("admin");
    const plain = await operatorClient("admin");
    const { secret } = await enroll(me);
    await withEnv({ SMTP_URL: "smtp://127.0.0.1:9" }, async () => {
      const signInCallback = emailLinkConfig().callbacks!.signIn!;
      const followed = (id: string) => signInCallback({ user: { id }, account: { provider: "email", type: "email", providerAccountId: id }, email: {} } as never);
      expect(await followed(plain.operator.id)).toBe(true);
      const redirect = await followed(me.operator.id);
      expect(typeof redirect).toBe("string");
      const ticket = new URL(redirect as string).searchParams.get("ticket")!;
      expect(readLinkTicket(ticket)).toBe(me.operator.id);
      expect(new URL(redirect as string).pathname).toBe("/login");
    });
    const ticket = linkTicket(me.operator.id);
    expect(readLinkTicket(ticket.replace(/.$/, (c) => (c === "A" ? "B" : "A")))).toBeNull();
    expect(readLinkTicket(linkTicket(me.operator.id, Date.now() - 60 * 60_000))).toBeNull();
    const step = (code: string) => signInSecondStep({ ctx: systemCtx(), input: { operatorId: me.operator.id, code, address: "203.0.113.77" } });
    expect(await step("000000" === codeFor(secret, 1) ? "111111" : "000000")).toEqual({ ok: false, reason: "invalid_code" });
    expect(await step(codeFor(secret, 1))).toMatchObject({ ok: true, operator: { id: me.operator.id } });
  });
});

describe("an admin resets an operator's factor", () => {
  it("removes it, audited: the password alone signs in again; a viewer may not", async () => {
    const admin = await operatorClient("admin");
    const viewer = await operatorClient("viewer");
    const me = await operatorClient("viewer");
    await enroll(me);
    expect((await viewer.del(`/api/v1/operators/${me.operator.id}/two-factor`)).status).toBe(403);
    expect(await signIn(me.operator.email)).toEqual({ ok: false, reason: "code_needed" });
    const reset = await admin.del(`/api/v1/operators/${me.operator.id}/two-factor`);
    expect(reset.status, reset.text).toBe(204);
    expect(await signIn(me.operator.email)).toMatchObject({ ok: true });
    const [event] = await sql()`select actor_id, data from audit_events where action = 'operator.two_factor_reset' and target_id = ${me.operator.id}`;
    expect(event).toMatchObject({ actor_id: admin.operator.id, data: { email: me.operator.email, was_enabled: true } });
    expect((await me.get("/api/v1/two-factor")).body.enabled).toBe(false);
  });
});

describe("a factor required of everyone", () => {
  it("sends an operator without one to enroll, refusing everything else until they have; audited", async () => {
    const admin = await operatorClient("admin");
    await enroll(admin);
    const viewer = await operatorClient("viewer");
    expect((await viewer.put("/api/v1/two-factor/policy", { required: true })).status).toBe(403);
    const set = await admin.put("/api/v1/two-factor/policy", { required: true });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ required: true });
    try {
      const refused = await viewer.get("/api/v1/consumers");
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("two_factor_enrollment_required");
      expect((await viewer.get("/api/v1/sessions")).status).toBe(200);
      expect((await viewer.get("/api/v1/two-factor")).body).toMatchObject({ enabled: false, required: true });
      // The admin has a factor; API keys are no operator's.
      expect((await admin.get("/api/v1/consumers")).status).toBe(200);
      expect((await api.get("/api/v1/consumers")).status).toBe(200);
      await enroll(viewer);
      expect((await viewer.get("/api/v1/consumers")).status).toBe(200);
      const [event] = await sql()`select actor_id, data from audit_events where action = 'settings.two_factor_policy_changed' order by created_at desc limit 1`;
      expect(event).toMatchObject({ actor_id: admin.operator.id, data: { required: true } });
    } finally {
      expect((await admin.put("/api/v1/two-factor/policy", { required: false })).status).toBe(200);
    }
    expect((await call("GET", "/api/v1/two-factor/policy", { key: api.key })).body).toEqual({ required: false });
  });
});
