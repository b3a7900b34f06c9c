import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook as Webhook1 } from "svix";
import { Webhook as Webhook2 } from "svix2";
import { startReceiver, waitFor, type Received } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";
import { apiError, sdkServer, SDKS, upsert, type Sdk } from "./sdks";

// One scheduled attempt: a delivery that fails once is failed for good, ready to recover.
process.env.DELIVERY_SCHEDULE = "0";
process.env.DELIVERY_TIMEOUT = "2s";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";
process.env.RECOVERY_TICK = "50ms";
process.env.RECOVERY_RAMP_EVERY = "1ms";

/**
 * Endpoints, messages, attempts, resend, rotation, recover and replay-missing through the official
 * svix SDKs, with the real worker delivering to a receiver on 127.0.0.1 that verifies every
 * delivery with both SDKs' `new Webhook(secret).verify(body, headers)`.
 */
const server = sdkServer();
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** The receiver answers 500 to paths listed here. */
const failing = new Set<string>();

beforeAll(async () => {
  worker = await startTestWorker();
  receiver = await startReceiver((req, res) => res.writeHead(failing.has(req.url ?? "") ? 500 : 204).end());
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
});

/** Both SDKs' verifiers accept the delivery with `secret`, from its svix-* headers alone (as a receiver written for Svix reads them). */
function verifiesWith(delivery: Received, secret: string): boolean {
  const headers = { "svix-id": String(delivery.headers["svix-id"]), "svix-timestamp": String(delivery.headers["svix-timestamp"]), "svix-signature": String(delivery.headers["svix-signature"]) };
  try {
    new Webhook1(secret).verify(delivery.body, headers);
    new Webhook2(secret).verify(delivery.body, headers);
    return true;
  } catch {
    return false;
  }
}

const receivedFor = (path: string, msgId: string) => receiver.received.filter((r) => r.path === path && r.headers["svix-id"] === msgId);
const whsec = (seed: string) => `whsec_${Buffer.from(seed.padEnd(32, "x").slice(0, 32)).toString("base64")}`;

describe.each(SDKS.map((sdk) => [sdk.name, sdk] as const))("%s", (name, sdk: Sdk) => {
  const svix = () => server.client(sdk);
  const tag = name.replace(/\W/g, "");

  it("creates, reads, replaces, patches and deletes endpoints; lists them to done", async () => {
    const { id: appId } = await svix().application.create({ name: "Endpoints", uid: `eps-${tag}` });
    const secret = whsec(`import-${tag}`);
    const created = await svix().endpoint.create(appId, {
      url: `${receiver.url}/crud-${tag}`,
      uid: `crud-${tag}`,
      description: "CRUD",
      // 1.x's name, and 2.x's: each SDK sends the one it knows.
      filterTypes: ["invoice.paid"],
      eventTypes: ["invoice.paid"],
      channels: ["billing"],
      metadata: { team: "billing" },
      secret,
      throttleRate: 10,
    } as never);
    expect(created).toMatchObject({ uid: `crud-${tag}`, description: "CRUD", channels: ["billing"], metadata: { team: "billing" }, disabled: false, throttleRate: 10 });
    // 1.x's typings require `version`; 2.x dropped it.
    expect([1, undefined]).toContain((created as { version?: number }).version);
    const types = created as { filterTypes?: string[] | null; eventTypes?: string[] | null };
    expect(types.filterTypes ?? types.eventTypes).toEqual(["invoice.paid"]);
    expect(created.id).toMatch(/^ep_/);
    expect((await svix().endpoint.getSecret(appId, `crud-${tag}`)).key).toBe(secret);
    expect((await svix().endpoint.get(appId, created.id)).uid).toBe(`crud-${tag}`);

    const replaced = await upsert<typeof created>(svix().endpoint, appId, `crud-${tag}`, { url: `${receiver.url}/crud2-${tag}`, uid: `crud-${tag}` });
    expect(replaced).toMatchObject({ id: created.id, description: "", channels: null, metadata: {} });
    const made = await upsert<typeof created>(svix().endpoint, appId, `made-${tag}`, { url: `${receiver.url}/made-${tag}` });
    expect(made.uid).toBe(`made-${tag}`);
    const patched = await svix().endpoint.patch(appId, created.id, { disabled: true, description: "off" });
    expect(patched).toMatchObject({ disabled: true, description: "off" });
    expect((await svix().endpoint.patch(appId, created.id, { disabled: false })).disabled).toBe(false);

    const ids: string[] = [];
    let iterator: string | null | undefined;
    for (;;) {
      const page = await svix().endpoint.list(appId, { limit: 1, iterator });
      ids.push(...page.data.map((e) => e.id));
      if (page.done) break;
      iterator = page.iterator;
    }
    expect(ids.sort()).toEqual([created.id, made.id].sort());

    await svix().endpoint.delete(appId, made.id);
    expect((await apiError(sdk, svix().endpoint.get(appId, made.id))).code).toBe(404);
    // Another application's endpoint is not found under this one.
    const { id: otherApp } = await svix().application.create({ name: "Other", uid: `eps-other-${tag}` });
    expect((await apiError(sdk, svix().endpoint.get(otherApp, created.id))).code).toBe(404);
  });

  it("refuses what Svix refuses with 422 naming the field", async () => {
    const { id: appId } = await svix().application.create({ name: "Bad", uid: `bad-${tag}` });
    const asymmetric = await apiError(sdk, svix().endpoint.create(appId, { url: `${receiver.url}/x`, secret: `whsk_${"A".repeat(40)}` }));
    expect(asymmetric.code).toBe(422);
    expect(asymmetric.body.detail[0].loc).toEqual(["body", "secret"]);
    const badUrl = await apiError(sdk, svix().endpoint.create(appId, { url: "not a url" }));
    expect(badUrl.code).toBe(422);
    expect(badUrl.body.detail[0].loc).toEqual(["body", "url"]);
  });

  it("keeps custom headers, hiding sensitive values; PUT replaces, PATCH merges and deletes", async () => {
    const { id: appId } = await svix().application.create({ name: "Headers", uid: `hdr-${tag}` });
    const ep = await svix().endpoint.create(appId, { url: `${receiver.url}/hdr-${tag}` });
    const setHeaders = (svix().endpoint as unknown as Record<string, (...a: unknown[]) => Promise<void>>);
    await (setHeaders.setHeaders ?? setHeaders.updateHeaders)!.call(svix().endpoint, appId, ep.id, { headers: { "x-team": "billing", authorization: "Bearer t" } });
    expect(await svix().endpoint.getHeaders(appId, ep.id)).toEqual({ headers: { "x-team": "billing" }, sensitive: ["authorization"] });
    await svix().endpoint.patchHeaders(appId, ep.id, { headers: { "x-env": "prod" }, deleteHeaders: ["authorization"] } as never);
    expect(await svix().endpoint.getHeaders(appId, ep.id)).toEqual({ headers: { "x-team": "billing", "x-env": "prod" }, sensitive: [] });
    const refused = await apiError(sdk, svix().endpoint.patchHeaders(appId, ep.id, { headers: { host: "evil" } } as never));
    expect(refused.code).toBe(422);
  });

  it("sends a message, delivered with svix-* headers both SDKs verify; eventId is unique and finds it", async () => {
    const { id: appId } = await svix().application.create({ name: "Messages", uid: `msg-${tag}` });
    const path = `/msg-${tag}`;
    const ep = await svix().endpoint.create(appId, { url: `${receiver.url}${path}` });
    const { key } = await svix().endpoint.getSecret(appId, ep.id);
    const msg = await svix().message.create(appId, { eventType: "invoice.paid", payload: { amount: 10 }, eventId: `evt-${tag}`, tags: ["t1"], channels: ["c1"] });
    expect(msg).toMatchObject({ eventType: "invoice.paid", eventId: `evt-${tag}`, tags: ["t1"], channels: ["c1"] });
    expect(msg.id).toMatch(/^msg_/);
    expect(msg.timestamp).toBeInstanceOf(Date);
    const [delivery] = await waitFor(() => (receivedFor(path, msg.id).length ? receivedFor(path, msg.id) : null), { what: "the delivery" });
    expect(verifiesWith(delivery!, key)).toBe(true);
    expect(JSON.parse(delivery!.body)).toEqual({ amount: 10 });

    const dup = await apiError(sdk, svix().message.create(appId, { eventType: "invoice.paid", payload: {}, eventId: `evt-${tag}` }));
    expect(dup.code).toBe(409);
    expect(dup.body.code).toBe("conflict");
    // 2.x asks for the payload only when told (with_content=false otherwise).
    const byEventId = await svix().message.get(appId, `evt-${tag}`, { withContent: true } as never);
    expect(byEventId).toMatchObject({ id: msg.id, payload: { amount: 10 } });
    const tagged = await svix().message.list(appId, { tag: "t1" });
    expect(tagged.data.map((m) => m.id)).toEqual([msg.id]);
    expect((await svix().message.list(appId, { channel: "nope" })).data).toEqual([]);
    const big = await apiError(sdk, svix().message.create(appId, { eventType: "invoice.paid", payload: { blob: "x".repeat(2 * 1024 * 1024) } }));
    expect(big.code).toBe(413);
    expect(big.body.code).toBe("payload_too_large");
    expect((await apiError(sdk, svix().message.create(`nobody-${tag}`, { eventType: "a.b", payload: {} }))).code).toBe(404);
    const inline = await svix().message.create(`inline-${tag}`, { eventType: "a.b", payload: {}, application: { name: "Inline", uid: `inline-${tag}` } });
    expect(inline.id).toMatch(/^msg_/);
  });

  it("sends a message once for one Idempotency-Key, however often and however concurrently it is sent", async () => {
    const { id: appId } = await svix().application.create({ name: "Once", uid: `once-msg-${tag}` });
    const path = `/once-${tag}`;
    await svix().endpoint.create(appId, { url: `${receiver.url}${path}` });
    const key = `msg-key-${tag}`;
    const send = () => svix().message.create(appId, { eventType: "invoice.paid", payload: { once: true } }, { idempotencyKey: key });
    const [a, b] = await Promise.all([send(), send()]);
    const c = await send();
    expect(new Set([a.id, b.id, c.id]).size).toBe(1);
    expect((await svix().message.list(appId)).data.map((m) => m.id)).toEqual([a.id]);
    await waitFor(() => receivedFor(path, a.id).length === 1, { what: "the one delivery" });
  });

  it("lists attempts, attempted messages and destinations, gets an attempt, and resends (202 {})", async () => {
    const { id: appId } = await svix().application.create({ name: "Attempts", uid: `att-${tag}` });
    const path = `/att-${tag}`;
    const ep = await svix().endpoint.create(appId, { url: `${receiver.url}${path}` });
    const msg = await svix().message.create(appId, { eventType: "invoice.paid", payload: { n: 1 } });
    const byEndpoint = await waitFor(async () => {
      const page = await svix().messageAttempt.listByEndpoint(appId, ep.id, { limit: 1 });
      return page.data.length ? page : null;
    }, { what: "an attempt" });
    const attempt = byEndpoint.data[0]!;
    expect(attempt).toMatchObject({ msgId: msg.id, endpointId: ep.id, url: `${receiver.url}${path}`, responseStatusCode: 204, status: 0, triggerType: 0 });
    expect((await svix().messageAttempt.listByMsg(appId, msg.id)).data.map((a) => a.id)).toEqual([attempt.id]);
    expect((await svix().messageAttempt.listByMsg(appId, msg.id, { status: 2 as never })).data).toEqual([]);
    expect((await svix().messageAttempt.get(appId, msg.id, attempt.id)).id).toBe(attempt.id);
    const attempted = await svix().messageAttempt.listAttemptedMessages(appId, ep.id);
    expect(attempted.data[0]).toMatchObject({ id: msg.id, status: 0 });
    const destinations = await svix().messageAttempt.listAttemptedDestinations(appId, msg.id);
    expect(destinations.data[0]).toMatchObject({ id: ep.id, status: 0 });

    const resent = await svix().messageAttempt.resend(appId, msg.id, ep.id);
    expect(resent ?? {}).toEqual({});
    await waitFor(() => receivedFor(path, msg.id).length >= 2, { what: "the resend" });
    const manual = await waitFor(async () => (await svix().messageAttempt.listByMsg(appId, msg.id)).data.find((a) => a.triggerType === 1), { what: "the manual attempt" });
    expect(manual.status).toBe(0);
  });

  it("rotates a secret with a grace period: each delivery verifies with the new secret and with the old", async () => {
    const { id: appId } = await svix().application.create({ name: "Rotate", uid: `rot-${tag}` });
    const path = `/rot-${tag}`;
    const ep = await svix().endpoint.create(appId, { url: `${receiver.url}${path}` });
    const { key: old } = await svix().endpoint.getSecret(appId, ep.id);
    const next = whsec(`next-${tag}`);
    await expect(svix().endpoint.rotateSecret(appId, ep.id, { key: next, gracePeriodSeconds: 3600 } as never)).resolves.toBeFalsy();
    expect((await svix().endpoint.getSecret(appId, ep.id)).key).toBe(next);
    const msg = await svix().message.create(appId, { eventType: "invoice.paid", payload: { rotated: true } });
    const [delivery] = await waitFor(() => (receivedFor(path, msg.id).length ? receivedFor(path, msg.id) : null), { what: "the delivery" });
    expect(verifiesWith(delivery!, next)).toBe(true);
    expect(verifiesWith(delivery!, old)).toBe(true);
    // With no grace period the old secret stops at once.
    await svix().endpoint.rotateSecret(appId, ep.id, { gracePeriodSeconds: 0 } as never);
    const { key: third } = await svix().endpoint.getSecret(appId, ep.id);
    const msg2 = await svix().message.create(appId, { eventType: "invoice.paid", payload: { again: true } });
    const [delivery2] = await waitFor(() => (receivedFor(path, msg2.id).length ? receivedFor(path, msg2.id) : null), { what: "the second delivery" });
    expect(verifiesWith(delivery2!, third)).toBe(true);
    expect(verifiesWith(delivery2!, next)).toBe(false);
  });

  it("recovers failed messages and replays missing ones, each finishing through backgroundTask.get", async () => {
    const { id: appId } = await svix().application.create({ name: "Recover", uid: `recv-${tag}` });
    const path = `/recv-${tag}`;
    const since = new Date(Date.now() - 60_000);
    const ep = await svix().endpoint.create(appId, { url: `${receiver.url}${path}` });
    const { key } = await svix().endpoint.getSecret(appId, ep.id);
    failing.add(path);
    const msg = await svix().message.create(appId, { eventType: "invoice.paid", payload: { fail: true } });
    await waitFor(async () => (await svix().messageAttempt.listAttemptedMessages(appId, ep.id)).data.find((m) => m.id === msg.id && m.status === 2), { what: "the failed delivery" });
    expect((await svix().endpoint.getStats(appId, ep.id, {} as never)).fail).toBe(1);
    failing.delete(path);

    const recover = await svix().endpoint.recover(appId, ep.id, { since });
    expect(recover).toMatchObject({ status: "running", task: "endpoint.recover" });
    const done = await waitFor(async () => {
      const task = await svix().backgroundTask.get(recover.id);
      return task.status === "finished" ? task : null;
    }, { what: "the recovery to finish" });
    expect(done.data).toEqual({ messagesSent: 1 });
    const redelivered = receivedFor(path, msg.id);
    expect(redelivered.length).toBe(2);
    expect(verifiesWith(redelivered[1]!, key)).toBe(true);

    // A second endpoint made after the message never got it: replay-missing sends it.
    const late = await svix().endpoint.create(appId, { url: `${receiver.url}${path}-late` });
    const replay = await svix().endpoint.replayMissing(appId, late.id, { since });
    expect(replay).toMatchObject({ status: "running", task: "endpoint.replay" });
    await waitFor(async () => (await svix().backgroundTask.get(replay.id)).status === "finished", { what: "the replay to finish" });
    const { key: lateKey } = await svix().endpoint.getSecret(appId, late.id);
    const replayed = receivedFor(`${path}-late`, msg.id);
    expect(replayed.length).toBe(1);
    expect(verifiesWith(replayed[0]!, lateKey)).toBe(true);
  });
});
