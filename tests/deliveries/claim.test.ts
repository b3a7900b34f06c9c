import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "../../lib/config";
import { decryptionKeys } from "../../lib/crypto/encryption";
import { getSql, type Sql } from "../../lib/db/client";
import { QUEUE_KINDS } from "../../lib/db/schema";
import { claimDueDeliveries, type ClaimedDelivery } from "../../lib/deliveries/claim-due-deliveries";
import { recordOutcomes, type AttemptOutcome } from "../../lib/deliveries/record-outcomes";
import { kindsOfWake, WAKE_CHANNEL, wakePayload } from "../../lib/jobs";
import { newId } from "../../lib/ids";
import { apiClient, type Api } from "../helpers/api";
import { consumerWithEndpoint, createEndpoint, sendMessage, sendMessages } from "../helpers/fixtures";
import { holdTransaction } from "../helpers/held-transaction";
import { waitFor } from "../helpers/receiver";

/**
 * The claim's policy — caps, fairness, the circuit breaker, rate limits, inactive endpoints, the
 * batch limit — asserted on webhook_admin_claim_deliveries_v2 itself, against real queue rows. No
 * worker runs in this file: each test claims by hand and reads what the claim left behind.
 */
const LEASE_MS = 30_000;
let api: Api;
/** The consumer of the latest endpointWith, for a message sent later. */
let latestConsumer = "";

beforeAll(async () => {
  api = await apiClient();
});

// Every test starts from an empty queue.
afterEach(async () => {
  await getSql()`delete from delivery_queue`;
});

async function endpointWith(due: number, settings: Record<string, unknown> = {}) {
  const { uid, endpointId: id } = await consumerWithEndpoint(api, "http://127.0.0.1:9/hook", { prefix: "claim" });
  latestConsumer = uid;
  await sendMessages(api, uid, due, "claim.test");
  const sql = getSql();
  const { max_concurrency = null, rate_limit_per_second = null, circuit_open_until = null, state = "active" } = settings;
  await sql`update endpoints set max_concurrency = ${max_concurrency as number | null}, rate_limit_per_second = ${rate_limit_per_second as number | null},
                                 circuit_open_until = ${circuit_open_until as Date | null}, state = ${state as string}
            where id = ${id}`;
  return id;
}

// Rows made due "now" are written as date_trunc('milliseconds', now()): next_attempt_at keeps
// milliseconds and Postgres rounds, so a plain now() can be up to 0.5 ms ahead of the claim that
// follows at once — not due yet.
const claim = (limit = 100) => claimDueDeliveries(getSql(), { limit, leaseMs: LEASE_MS, defaultConcurrency: 10, keys: decryptionKeys(getConfig()) });

const HEALTH = { failureThreshold: 5, openForMs: 30_000, defaultConcurrency: 10 };

/** A claimed delivery's first attempt, answered 204, as the pump hands it to the outcome writer. */
function succeeded(d: ClaimedDelivery, token: string, attemptId: string): AttemptOutcome {
  return {
    attemptId,
    deliveryId: d.id,
    messageId: d.message_id,
    endpointId: d.endpoint_id,
    consumerId: d.consumer_id,
    attemptNumber: 1,
    trigger: "scheduled",
    success: true,
    statusCode: 204,
    error: null,
    errorDetail: null,
    responseBody: "",
    durationMs: 3,
    requestHeaders: { "webhook-id": d.message_id },
    url: d.route.where,
    finishedAt: new Date(),
    leaseToken: token,
    next: { status: "succeeded", attemptAt: null },
  };
}

async function queueOf(endpointId: string) {
  return getSql()<{ delivery_id: string; leased: boolean; parked: boolean; next_attempt_at: Date }[]>`
    select delivery_id, lease_token is not null as leased, parked, next_attempt_at from delivery_queue where endpoint_id = ${endpointId}`;
}

describe("claiming due deliveries", () => {
  it("takes only the free slots and parks the rest until a slot frees", async () => {
    const id = await endpointWith(8, { max_concurrency: 3 });
    expect((await claim(1)).deliveries).toHaveLength(1);
    const before = Date.now();
    const { deliveries } = await claim();
    expect(deliveries).toHaveLength(2);
    const queue = await queueOf(id);
    expect(queue.filter((q) => q.leased)).toHaveLength(3);
    const parked = queue.filter((q) => q.parked);
    expect(parked).toHaveLength(5);
    // The lease's end is only the safety net; the next outcome at the endpoint wakes them.
    for (const p of parked) expect(p.next_attempt_at.getTime()).toBeGreaterThanOrEqual(before + LEASE_MS - 1000);
    expect((await claim()).deliveries).toHaveLength(0);
  });

  it("returns where each delivery goes as its endpoint's destination and target, resolved once per endpoint", async () => {
    const http = await endpointWith(2);
    await getSql()`update endpoints set headers = ${getSql().json({ "x-team": "billing" })}, svix_headers = true where id = ${http}`;
    // A kind this code does not know (a newer release's, after a rollback): the claim still leases
    // it, and its attempt fails with the reason (tests/deliveries/poisoned-delivery.test.ts).
    const other = await endpointWith(1);
    await getSql()`update endpoints set destination = 'carrier-pigeon', target = ${getSql().json({ loft: 7 })} where id = ${other}`;
    const { deliveries } = await claim();
    const ofHttp = deliveries.filter((d) => d.endpoint_id === http);
    expect(ofHttp).toHaveLength(2);
    expect(ofHttp[0]!.route).toMatchObject({
      destination: { kind: "http" },
      target: { url: "http://127.0.0.1:9/hook", headers: { "x-team": "billing" }, svix_headers: true },
      where: "http://127.0.0.1:9/hook",
    });
    expect(ofHttp[1]!.route).toBe(ofHttp[0]!.route);
    expect(deliveries.find((d) => d.endpoint_id === other)?.route).toEqual({ where: "carrier-pigeon", problem: expect.stringContaining('"carrier-pigeon"') });
    // What the SQL function returns for it: the stored kind and target, passed through as they are.
    await getSql()`update delivery_queue set lease_token = null, next_attempt_at = date_trunc('milliseconds', now()) where endpoint_id = ${other}`;
    const raw = await getSql()<{ destination: string; target: unknown }[]>`
      select destination, target from webhook_admin_claim_deliveries_v2(10, ${LEASE_MS}, 10, 'tok_raw', null)`;
    expect(raw).toEqual([{ destination: "carrier-pigeon", target: { loft: 7 } }]);
  });

  it("parks a row whose lease ran out without its old token, so it holds no slot while it waits", async () => {
    const id = await endpointWith(3, { max_concurrency: 1 });
    const rows = await getSql()<{ delivery_id: string }[]>`select delivery_id from delivery_queue where endpoint_id = ${id} order by delivery_id`;
    // Two leases that ran out, as a dead worker leaves them; the third row is plainly due.
    await getSql()`update delivery_queue set lease_token = 'tok_gone', next_attempt_at = now() - interval '1 second'
                   where delivery_id in ${getSql()(rows.slice(0, 2).map((r) => r.delivery_id))}`;
    const first = await claim();
    expect(first.deliveries).toHaveLength(1);
    const queue = await getSql()<{ token: string | null; parked: boolean }[]>`
      select lease_token as token, parked from delivery_queue where endpoint_id = ${id} and lease_token is distinct from ${first.token}`;
    expect(queue).toEqual([
      { token: null, parked: true },
      { token: null, parked: true },
    ]);
    // Its one slot is the claim's: once that outcome is in, the next claim takes one more.
    await getSql()`delete from delivery_queue where lease_token = ${first.token}`;
    await getSql()`update delivery_queue set parked = false, next_attempt_at = date_trunc('milliseconds', now()) where endpoint_id = ${id}`;
    expect((await claim()).deliveries).toHaveLength(1);
  });

  it("keeps one endpoint's backlog from crowding out another's: its cap parks the rest", async () => {
    const busy = await endpointWith(50);
    const quiet = await endpointWith(5);
    // A quick claim first (the quiet consumer's few beside the busy one's many), then the rest.
    const first = await claim();
    const second = await claim();
    const deliveries = [...first.deliveries, ...second.deliveries];
    expect(first.more).toBe(true);
    expect(deliveries.filter((d) => d.endpoint_id === quiet)).toHaveLength(5);
    expect(deliveries.filter((d) => d.endpoint_id === busy)).toHaveLength(10);
    expect((await queueOf(busy)).filter((q) => q.parked)).toHaveLength(40);
  });

  it("parks everything while the circuit is open: one row due at its end for the probe, the rest waiting for its outcome", async () => {
    const openUntil = new Date(Date.now() + 20_000);
    const id = await endpointWith(4, { circuit_open_until: openUntil });
    expect((await claim()).deliveries).toHaveLength(0);
    const queue = await queueOf(id);
    expect(queue).toHaveLength(4);
    expect(queue.every((q) => q.parked)).toBe(true);
    const times = () => queueOf(id).then((q) => q.map((r) => r.next_attempt_at.getTime() - openUntil.getTime()).sort((a, b) => a - b));
    // The safety net, should no outcome come: an hour past the circuit's end.
    expect(await times()).toEqual([0, 3600_000, 3600_000, 3600_000]);
    // A later claim parking more of the backlog names no second probe: one row due at the end, not one per claim.
    await sendMessages(api, latestConsumer, 3, "claim.test");
    expect((await claim()).deliveries).toHaveLength(0);
    expect(await times()).toEqual([0, ...Array(6).fill(3600_000)]);
  });

  it("keeps a failing endpoint's backlog out of the claims: at the circuit's end one probe, and its outcome wakes a slot's worth", async () => {
    // A backlog behind an open circuit, and a healthy endpoint of the same consumer behind it.
    const id = await endpointWith(60, { circuit_open_until: new Date(Date.now() + 60_000) });
    const healthy = (await createEndpoint(api, latestConsumer, "http://127.0.0.1:9/hook")).id;
    const sql = getSql();
    await sql`update endpoints set max_concurrency = 5 where id = ${id}`;
    // Claims of 100 park the whole backlog (the healthy endpoint's row is among what they claim).
    for (let i = 0; i < 5 && (await sql`select 1 from delivery_queue where endpoint_id = ${id} and not parked`).length > 0; i++) await claim();
    // The circuit's time passes: only the rows parked for the probe come due, not the backlog.
    await sql`update endpoints set circuit_open_until = now() - interval '1 second' where id = ${id}`;
    await sql`update delivery_queue set next_attempt_at = date_trunc('milliseconds', now()) where endpoint_id = ${id} and next_attempt_at < now() + interval '5 minutes'`;
    const due = await sql`select 1 from delivery_queue where endpoint_id = ${id} and next_attempt_at <= now()`;
    expect(due.length).toBe(1);
    await sendMessage(api, latestConsumer, { event_type: "claim.test", payload: { after: true } });
    const { token, deliveries } = await claim();
    // The probe, and the healthy endpoint's new delivery beside it.
    expect(deliveries.filter((d) => d.endpoint_id === id).map((d) => d.probe)).toEqual([true]);
    expect(deliveries.filter((d) => d.endpoint_id === healthy)).toHaveLength(1);
    // The probe fails: the circuit opens again, and its freed slot wakes no more than the cap's worth.
    const probe = deliveries.find((d) => d.endpoint_id === id)!;
    await recordOutcomes(sql, {
      outcomes: [{ ...succeeded(probe, token, newId("attempt")), success: false, statusCode: 500, next: { status: "pending", attemptAt: new Date(Date.now() + 60_000) } }],
      health: { ...HEALTH, failureThreshold: 1 },
    });
    const woken = await sql`select 1 from delivery_queue where endpoint_id = ${id} and next_attempt_at <= now()`;
    expect(woken.length).toBeLessThanOrEqual(5);
    // Nothing lost: the backlog, the probe waiting for its retry, and the message sent after.
    expect((await queueOf(id)).length).toBe(61);
  });

  it("wakes the backlog parked behind the circuit when a person closes it by enabling the endpoint", async () => {
    const id = await endpointWith(20, { circuit_open_until: new Date(Date.now() + 60_000), max_concurrency: 4 });
    await claim();
    expect((await getSql()`select 1 from delivery_queue where endpoint_id = ${id} and next_attempt_at <= now()`).length).toBe(0);
    expect((await api.post(`/api/v1/endpoints/${id}/enable`)).status).toBe(200);
    // Its four slots' worth due at once; their outcomes wake the rest, a slot at a time.
    const { deliveries } = await claim();
    expect(deliveries.map((d) => [d.endpoint_id, d.probe])).toEqual(Array(4).fill([id, false]));
  });

  it("sends exactly one probe when the circuit half-opens and holds it open meanwhile", async () => {
    const id = await endpointWith(4, { circuit_open_until: new Date(Date.now() - 1000) });
    const before = Date.now();
    const { deliveries } = await claim();
    expect(deliveries.map((d) => d.probe)).toEqual([true]);
    expect((await queueOf(id)).filter((q) => q.parked)).toHaveLength(3);
    const [endpoint] = await getSql()<{ circuit_open_until: Date }[]>`select circuit_open_until from endpoints where id = ${id}`;
    expect(endpoint!.circuit_open_until.getTime()).toBeGreaterThanOrEqual(before + LEASE_MS - 1000);
    // Nothing more while the probe is out, even once the circuit's time has passed.
    await getSql()`update endpoints set circuit_open_until = now() - interval '1 second' where id = ${id}`;
    await getSql()`update delivery_queue set parked = false, next_attempt_at = date_trunc('milliseconds', now()) where endpoint_id = ${id} and lease_token is null`;
    expect((await claim()).deliveries).toHaveLength(0);
  });

  it("spends the rate budget of the current second and parks the rest until the next", async () => {
    const id = await endpointWith(10, { rate_limit_per_second: 5 });
    // Two already spent in this second, and the claim in the same transaction: now() is one instant
    // for both statements, so the claim sees this very second however slowly the machine runs.
    const { deliveries } = await getSql().begin(async (tx) => {
      await tx`update endpoints set rate_window_start = date_trunc('second', now()), rate_window_count = 2 where id = ${id}`;
      return claimDueDeliveries(tx as unknown as Sql, { limit: 100, leaseMs: LEASE_MS, defaultConcurrency: 10, keys: decryptionKeys(getConfig()) });
    });
    expect(deliveries).toHaveLength(3);
    const [endpoint] = await getSql()<{ rate_window_count: number; rate_window_start: Date }[]>`
      select rate_window_count, rate_window_start from endpoints where id = ${id}`;
    expect(endpoint!.rate_window_count).toBe(5);
    const waiting = (await queueOf(id)).filter((q) => !q.leased);
    expect(waiting).toHaveLength(7);
    // Not parked for a slot: booked into the next seconds, five in each.
    expect(waiting.every((w) => !w.parked)).toBe(true);
    const second = endpoint!.rate_window_start.getTime();
    expect(waiting.map((w) => w.next_attempt_at.getTime() - second).sort((a, b) => a - b)).toEqual([1000, 1000, 1000, 1000, 1000, 2000, 2000]);
  });

  it("books a backlog behind its rate once, each later second taking the rate's worth, a later claim after what earlier ones booked", async () => {
    const id = await endpointWith(30, { rate_limit_per_second: 5 });
    // Three claims of a window of ten each, in one transaction: one now() for all, the current second's budget spent by the first.
    const [firstSecond] = await getSql().begin(async (tx) => {
      const claims = [];
      for (let i = 0; i < 3; i++) claims.push(await claimDueDeliveries(tx as unknown as Sql, { limit: 5, leaseMs: LEASE_MS, defaultConcurrency: 10, keys: decryptionKeys(getConfig()) }));
      expect(claims.map((c) => c.deliveries.length)).toEqual([5, 0, 0]);
      return tx<{ s: Date }[]>`select date_trunc('second', now()) as s`;
    });
    const booked = (await queueOf(id)).filter((q) => !q.leased);
    expect(booked).toHaveLength(25);
    const perSecond = new Map<number, number>();
    for (const b of booked) {
      const offset = b.next_attempt_at.getTime() - firstSecond!.s.getTime();
      perSecond.set(offset, (perSecond.get(offset) ?? 0) + 1);
    }
    // Nothing is due again at once: the 25 waiting fill the next five seconds, five each, in turn.
    expect([...perSecond].sort((a, b) => a[0] - b[0])).toEqual([1000, 2000, 3000, 4000, 5000].map((o) => [o, 5]));
    const [endpoint] = await getSql()<{ booked: Date }[]>`select rate_booked_until as booked from endpoints where id = ${id}`;
    expect(endpoint!.booked.getTime() - firstSecond!.s.getTime()).toBe(6000);

    // One of them meanwhile waits for a retry of its own, an hour away (as a failed attempt leaves it).
    const [retry] = booked;
    await getSql()`update deliveries set next_attempt_at = now() + interval '1 hour' where id = ${retry!.delivery_id}`;
    await getSql()`update delivery_queue set next_attempt_at = now() + interval '1 hour' where delivery_id = ${retry!.delivery_id}`;
    // A new rate applies at once: the bookings made at the old one are undone, the retry keeps its time.
    expect((await api.patch(`/api/v1/endpoints/${id}`, { rate_limit_per_second: 100 })).status).toBe(200);
    const after = (await queueOf(id)).filter((q) => !q.leased);
    const due = after.filter((q) => q.next_attempt_at.getTime() <= Date.now());
    expect(due).toHaveLength(24);
    expect(after.find((q) => q.delivery_id === retry!.delivery_id)!.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    const [cleared] = await getSql()<{ booked: Date | null }[]>`select rate_booked_until as booked from endpoints where id = ${id}`;
    expect(cleared!.booked).toBeNull();
  });

  it("counts a claim that began before the current window against it, not against a fresh one", async () => {
    const id = await endpointWith(10, { rate_limit_per_second: 5 });
    // Another claim has spent the whole budget of a later second than this transaction's now(): this
    // claim began earlier and reached the endpoint's lock only after that one committed.
    const { deliveries } = await getSql().begin(async (tx) => {
      await tx`update endpoints set rate_window_start = date_trunc('second', now()) + interval '1 second', rate_window_count = 5 where id = ${id}`;
      return claimDueDeliveries(tx as unknown as Sql, { limit: 100, leaseMs: LEASE_MS, defaultConcurrency: 10, keys: decryptionKeys(getConfig()) });
    });
    expect(deliveries).toHaveLength(0);
    const [endpoint] = await getSql()<{ rate_window_count: number; rate_window_start: Date }[]>`
      select rate_window_count, rate_window_start from endpoints where id = ${id}`;
    expect(endpoint!.rate_window_count).toBe(5);
    // Booked into the seconds after that window, five in each.
    const offsets = (await queueOf(id)).map((w) => w.next_attempt_at.getTime() - endpoint!.rate_window_start.getTime()).sort((a, b) => a - b);
    expect(offsets).toEqual([...Array(5).fill(1000), ...Array(5).fill(2000)]);
  });

  it("cancels the deliveries of endpoints that are no longer active", async () => {
    const id = await endpointWith(3, { state: "disabled" });
    expect((await claim()).deliveries).toHaveLength(0);
    expect(await queueOf(id)).toHaveLength(0);
    const rows = await getSql()<{ status: string; last_error: string }[]>`select status, last_error from deliveries where endpoint_id = ${id}`;
    expect(rows).toEqual(Array(3).fill({ status: "canceled", last_error: "endpoint_not_active" }));
  });

  it("respects the batch limit and says when more is due", async () => {
    const id = await endpointWith(20, { max_concurrency: 100 });
    const first = await claim(7);
    expect(first.deliveries).toHaveLength(7);
    expect(first.more).toBe(true);
    expect((await queueOf(id)).filter((q) => q.parked)).toHaveLength(0);
    const rest = await claim(50);
    expect(rest.deliveries).toHaveLength(13);
    expect(rest.more).toBe(false);
    // Each claimed row carries what the attempt needs: payload, where it goes and the endpoint's secret.
    expect(rest.deliveries[0]).toMatchObject({ route: { where: "http://127.0.0.1:9/hook" }, probe: false });
    expect(rest.deliveries[0]!.secrets).toHaveLength(1);
    expect(JSON.parse(rest.deliveries[0]!.payload)).toHaveProperty("i");
  });

  it("writes an outcome retried after a lost commit answer once: one attempt logged, the delivery moved once", async () => {
    const id = await endpointWith(1);
    const { token, deliveries } = await claim();
    const d = deliveries[0]!;
    const outcome = succeeded(d, token, "att_retried_write");
    await recordOutcomes(getSql(), { outcomes: [outcome], health: HEALTH });
    await recordOutcomes(getSql(), { outcomes: [outcome], health: HEALTH });
    const sql = getSql();
    expect(await sql`select id from attempts where delivery_id = ${d.id}`).toHaveLength(1);
    const [delivery] = await sql<{ status: string; attempts: number }[]>`select status, attempts from deliveries where id = ${d.id}`;
    expect(delivery).toEqual({ status: "succeeded", attempts: 1 });
    expect(await queueOf(id)).toHaveLength(0);
  });

  it("leases and completes a delivery made before migration 0019, its id later than its message's, beside today's", async () => {
    // The lease and the outcome writes read deliveries and messages bounded by the batch's ids (they
    // are partitioned by id, a day each): a delivery made before 0019 has an id of its own time, and
    // its message may be days older than every other message of the batch.
    const id = await endpointWith(1);
    const sql = getSql();
    const [endpoint] = await sql<{ consumer_id: string }[]>`select consumer_id from endpoints where id = ${id}`;
    const consumer = endpoint!.consumer_id;
    const old = newId("message", Date.now() - 3 * 86_400_000);
    await sql`insert into messages (id, consumer_id, event_type, payload, created_at)
              values (${old}, ${consumer}, 'claim.test', '{"old":true}', now() - interval '3 days')`;
    const made = newId("delivery");
    await sql`insert into deliveries (id, message_id, endpoint_id, consumer_id, status, next_attempt_at) values (${made}, ${old}, ${id}, ${consumer}, 'pending', now())`;
    await sql`insert into delivery_queue (delivery_id, endpoint_id, next_attempt_at) values (${made}, ${id}, date_trunc('milliseconds', now()) - interval '1 second')`;
    const { token, deliveries } = await claim();
    expect(deliveries).toHaveLength(2);
    expect(deliveries.find((d) => d.id === made)).toMatchObject({ message_id: old, payload: '{"old":true}' });
    await recordOutcomes(sql, { outcomes: deliveries.map((d) => succeeded(d, token, newId("attempt"))), health: HEALTH });
    const ended = await sql<{ status: string; attempts: number }[]>`select status, attempts from deliveries where endpoint_id = ${id}`;
    expect(ended).toEqual([
      { status: "succeeded", attempts: 1 },
      { status: "succeeded", attempts: 1 },
    ]);
    expect(await queueOf(id)).toHaveLength(0);
  });

  it("goes on at once when everything it scanned had to wait, so work behind it is not stranded", async () => {
    // 30 due behind an open circuit fill a scan window of 2 × 5; a healthy endpoint's delivery is
    // behind them, the same consumer's (another consumer's would be served at once: fairness.test.ts).
    await endpointWith(30, { circuit_open_until: new Date(Date.now() + 60_000) });
    const healthy = (await createEndpoint(api, latestConsumer, "http://127.0.0.1:9/hook")).id;
    await sendMessage(api, latestConsumer, { event_type: "claim.test" });
    const sql = getSql();
    await sql`delete from graphile_worker._private_jobs`;
    expect((await claim(5)).deliveries).toHaveLength(0);
    const jobs = await sql<{ key: string; run_at: Date }[]>`select key, run_at from graphile_worker._private_jobs`;
    expect(jobs.map((j) => j.key)).toContain("deliver_due");
    // Claims carry on through the parked backlog until the healthy endpoint's delivery is reached.
    let claimed: string[] = [];
    for (let i = 0; i < 10 && claimed.length === 0; i++) claimed = (await claim(5)).deliveries.map((d) => d.endpoint_id);
    expect(claimed).toEqual([healthy]);
  });

  it("parks behind a lease whose outcome is being written only briefly: that outcome could not wake it", async () => {
    const id = await endpointWith(1, { max_concurrency: 1 });
    const [first] = (await claim()).deliveries;
    // The next message comes while the first attempt is out.
    await sendMessage(api, latestConsumer, { event_type: "claim.test", payload: { i: 1 } });
    // An outcome write in progress holds the lease's queue row until it commits.
    const writer = await holdTransaction((tx) => tx`select 1 from delivery_queue where delivery_id = ${first!.id} for update`);
    expect((await claim()).deliveries).toHaveLength(0);
    const [waiting] = await getSql()<{ parked: boolean; next_attempt_at: Date }[]>`
      select parked, next_attempt_at from delivery_queue where endpoint_id = ${id} and lease_token is null`;
    await writer.commit();
    // Parked all the same, so a later outcome hands it a slot before any recovery item parked earlier.
    expect(waiting!.parked).toBe(true);
    // Without a write in progress the same wait is for the endpoint's next outcome: the first test.
    expect(waiting!.next_attempt_at.getTime()).toBeLessThan(Date.now() + 2000);
  });

  // A success deletes the lease's queue row; a failure with a retry to come updates it.
  it.each([
    ["a success", true],
    ["a failure with a retry", false],
  ])("has an outcome (%s) that comes while a claim parks behind its lease wait for that claim, and hand it the slot", async (_, success) => {
    const id = await endpointWith(1, { max_concurrency: 1 });
    const first = await claim();
    const lease = first.deliveries[0]!;
    await sendMessage(api, latestConsumer, { event_type: "claim.test", payload: { i: 1 } });
    // A claim that has parked the new delivery behind the lease, not yet committed.
    const claiming = await holdTransaction((tx) => claimDueDeliveries(tx as unknown as Sql, { limit: 100, leaseMs: LEASE_MS, defaultConcurrency: 10, keys: decryptionKeys(getConfig()) }));
    expect(claiming.result.deliveries).toHaveLength(0);
    // The lease's outcome comes now: it must not free the slot unseen by that claim.
    const outcome = recordOutcomes(getSql(), {
      health: { failureThreshold: 5, openForMs: 30_000, defaultConcurrency: 10 },
      outcomes: [
        {
          attemptId: "att_during_claim", deliveryId: lease.id, messageId: lease.message_id, endpointId: id, consumerId: lease.consumer_id,
          attemptNumber: 1, trigger: "scheduled", success, statusCode: success ? 204 : 503, error: success ? null : "http_error", errorDetail: null,
          responseBody: "", durationMs: 1, requestHeaders: {}, url: "http://127.0.0.1/", finishedAt: new Date(), leaseToken: first.token,
          next: success ? { status: "succeeded", attemptAt: null } : { status: "pending", attemptAt: new Date(Date.now() + 60_000) },
        },
      ],
    });
    const waitsForLock = async () => {
      for (;;) {
        const [row] = await getSql()<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
        if (row!.n > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    // Either the outcome waits for the claim, or (the race) it is written before the claim commits.
    await Promise.race([outcome, waitsForLock()]);
    await claiming.commit();
    await outcome;
    const [waiting] = await getSql()<{ parked: boolean; due: boolean }[]>`
      select parked, next_attempt_at <= now() as due from delivery_queue where endpoint_id = ${id} and delivery_id <> ${lease.id}`;
    expect(waiting).toEqual({ parked: false, due: true });
  });

  it("serves live work first, then resends, then recovery items — within one endpoint's slots too", async () => {
    const id = await endpointWith(3, { max_concurrency: 2 });
    const sql = getSql();
    const rows = await sql<{ id: string }[]>`select id from deliveries where endpoint_id = ${id} order by created_at, id`;
    const [a, b, c] = rows.map((r) => r.id) as [string, string, string];
    // The recovery item and the resend have waited longest; the scheduled delivery is due last.
    await sql`delete from delivery_queue where endpoint_id = ${id}`;
    await sql`insert into delivery_queue (delivery_id, kind, endpoint_id, next_attempt_at) values
              (${a}, webhook_admin_queue_kind('recovery'), ${id}, now() - interval '3 seconds'), (${b}, webhook_admin_queue_kind('manual'), ${id}, now() - interval '2 seconds'),
              (${c}, webhook_admin_queue_kind('scheduled'), ${id}, now() - interval '1 second')`;
    const first = await claim();
    expect(first.deliveries.map((d) => [d.id, d.kind]).sort((p, q) => Number(p[1]) - Number(q[1]))).toEqual([[c, QUEUE_KINDS.scheduled], [b, QUEUE_KINDS.manual]]);
    // The recovery item waits for a slot; freed, the slot goes to it only when no live work waits.
    const parked = await sql<{ kind: number; parked: boolean }[]>`select kind, parked from delivery_queue where endpoint_id = ${id} and lease_token is null`;
    expect(parked).toEqual([{ kind: QUEUE_KINDS.recovery, parked: true }]);
    await sql`insert into delivery_queue (delivery_id, kind, endpoint_id, next_attempt_at, parked) values (${a}, webhook_admin_queue_kind('scheduled'), ${id}, now(), true)`;
    const scheduled = first.deliveries.find((d) => d.kind === QUEUE_KINDS.scheduled)!;
    const health = { failureThreshold: 5, openForMs: 30_000, defaultConcurrency: 10, keys: decryptionKeys(getConfig()) };
    await recordOutcomes(getSql(), {
      health,
      outcomes: [
        {
          attemptId: "att_kinds_first", deliveryId: scheduled.id, messageId: scheduled.message_id, endpointId: id, consumerId: scheduled.consumer_id,
          attemptNumber: 1, trigger: "scheduled", success: true, statusCode: 204, error: null, errorDetail: null, responseBody: "", durationMs: 1,
          requestHeaders: {}, url: "http://127.0.0.1/", finishedAt: new Date(), leaseToken: first.token, next: { status: "succeeded", attemptAt: null },
        },
      ],
    });
    const unparked = await sql<{ kind: number; parked: boolean }[]>`
      select kind, parked from delivery_queue where endpoint_id = ${id} and lease_token is null order by kind`;
    expect(unparked).toEqual([{ kind: QUEUE_KINDS.scheduled, parked: false }, { kind: QUEUE_KINDS.recovery, parked: true }]);
  });

  it("lets a recovery use every slot of an endpoint without live traffic, and keeps half of them free for live traffic while there is some", async () => {
    const sql = getSql();
    const recoveryItems = async (id: string, rows: { id: string }[]) => {
      await sql`delete from delivery_queue where endpoint_id = ${id}`;
      await sql`insert into delivery_queue (delivery_id, kind, endpoint_id, next_attempt_at)
                select d, webhook_admin_queue_kind('recovery'), ${id}, now() - interval '1 second' from unnest(${rows.map((r) => r.id)}::text[]) as d`;
    };
    // Nobody else sends to it: the run takes all four slots in one claim.
    const quiet = await endpointWith(6, { max_concurrency: 4 });
    await recoveryItems(quiet, await sql<{ id: string }[]>`select id from deliveries where endpoint_id = ${quiet} order by id`);
    expect((await claim()).deliveries.map((d) => d.kind)).toEqual(Array(4).fill(QUEUE_KINDS.recovery));

    // Live traffic answered a moment ago: the run leaves half the slots free, and live work
    // arriving meanwhile goes at once instead of waiting behind the run's burst.
    const busy = await endpointWith(8, { max_concurrency: 4 });
    const rows = await sql<{ id: string }[]>`select id from deliveries where endpoint_id = ${busy} order by id`;
    await sql`delete from delivery_queue where endpoint_id = ${busy} and delivery_id <> ${rows[0]!.id}`;
    const live = await claim();
    expect(live.deliveries.map((d) => d.id)).toEqual([rows[0]!.id]);
    await recordOutcomes(sql, { outcomes: [succeeded(live.deliveries[0]!, live.token, newId("attempt"))], health: HEALTH });
    await recoveryItems(busy, rows.slice(1, 7));
    const run = await claim();
    expect(run.deliveries.map((d) => d.kind)).toEqual(Array(2).fill(QUEUE_KINDS.recovery));
    expect((await sql`select 1 from delivery_queue where endpoint_id = ${busy} and kind = webhook_admin_queue_kind('recovery') and parked`).length).toBe(4);
    await sql`insert into delivery_queue (delivery_id, kind, endpoint_id, next_attempt_at) values (${rows[7]!.id}, webhook_admin_queue_kind('scheduled'), ${busy}, now() - interval '1 millisecond')`;
    expect((await claim()).deliveries.map((d) => [d.id, d.kind])).toEqual([[rows[7]!.id, QUEUE_KINDS.scheduled]]);
  });

  it("drops a resend or a recovery item for a stopped endpoint without canceling the delivery, and a recovery item whose delivery succeeded", async () => {
    const stopped = await endpointWith(2, { state: "disabled" });
    const sql = getSql();
    const [x, y] = (await sql<{ id: string }[]>`select id from deliveries where endpoint_id = ${stopped} order by id`).map((r) => r.id);
    await sql`delete from delivery_queue where endpoint_id = ${stopped}`;
    await sql`update deliveries set status = 'failed' where endpoint_id = ${stopped}`;
    await sql`insert into delivery_queue (delivery_id, kind, endpoint_id, next_attempt_at) values (${x!}, webhook_admin_queue_kind('manual'), ${stopped}, date_trunc('milliseconds', now())), (${y!}, webhook_admin_queue_kind('recovery'), ${stopped}, date_trunc('milliseconds', now()))`;
    const done = await endpointWith(1);
    const [z] = (await sql<{ id: string }[]>`select id from deliveries where endpoint_id = ${done}`).map((r) => r.id);
    await sql`delete from delivery_queue where endpoint_id = ${done}`;
    await sql`update deliveries set status = 'succeeded' where id = ${z!}`;
    await sql`insert into delivery_queue (delivery_id, kind, endpoint_id, next_attempt_at) values (${z!}, webhook_admin_queue_kind('recovery'), ${done}, date_trunc('milliseconds', now()))`;
    expect((await claim()).deliveries).toHaveLength(0);
    expect(await sql`select 1 from delivery_queue where endpoint_id in (${stopped}, ${done})`).toHaveLength(0);
    const statuses = await sql<{ status: string }[]>`select status from deliveries where endpoint_id in (${stopped}, ${done}) order by endpoint_id = ${done}, id`;
    expect(statuses.map((s) => s.status)).toEqual(["failed", "failed", "succeeded"]);
  });

  it("ends a delivery's other queue rows when a resend or recovery attempt succeeds, but never a resend someone asked for", async () => {
    const id = await endpointWith(1);
    const sql = getSql();
    const [d] = (await sql<{ id: string }[]>`select id from deliveries where endpoint_id = ${id}`).map((r) => r.id);
    await sql`update deliveries set status = 'failed' where id = ${d!}`;
    await sql`update delivery_queue set next_attempt_at = now() + interval '1 hour' where delivery_id = ${d!}`;
    await sql`insert into delivery_queue (delivery_id, kind, endpoint_id, next_attempt_at, recovery_id) values
              (${d!}, webhook_admin_queue_kind('manual'), ${id}, now() + interval '1 hour', null), (${d!}, webhook_admin_queue_kind('recovery'), ${id}, date_trunc('milliseconds', now()), 'rec_test')`;
    const { token, deliveries } = await claim();
    expect(deliveries.map((x) => x.kind)).toEqual([QUEUE_KINDS.recovery]);
    const c = deliveries[0]!;
    await recordOutcomes(sql, {
      health: { failureThreshold: 5, openForMs: 30_000, defaultConcurrency: 10 },
      outcomes: [
        {
          attemptId: "att_kinds_recovery", deliveryId: c.id, messageId: c.message_id, endpointId: id, consumerId: c.consumer_id,
          attemptNumber: 1, trigger: "recovery", success: true, statusCode: 200, error: null, errorDetail: null, responseBody: "", durationMs: 1,
          requestHeaders: {}, url: "http://127.0.0.1/", finishedAt: new Date(), leaseToken: token, next: null,
        },
      ],
    });
    const left = await sql<{ kind: number }[]>`select kind from delivery_queue where delivery_id = ${d!} order by kind`;
    expect(left.map((r) => r.kind)).toEqual([QUEUE_KINDS.manual]);
    const [delivery] = await sql<{ status: string; attempts: number }[]>`select status, attempts from deliveries where id = ${d!}`;
    expect(delivery).toEqual({ status: "succeeded", attempts: 1 });
  });

  it("keeps the slot of an attempt still out when another attempt of the same delivery succeeds", async () => {
    const id = await endpointWith(1, { max_concurrency: 3 });
    const sql = getSql();
    const [d] = (await sql<{ id: string }[]>`select id from deliveries where endpoint_id = ${id}`).map((r) => r.id);
    await sql`insert into delivery_queue (delivery_id, kind, endpoint_id, next_attempt_at, recovery_id) values
              (${d!}, webhook_admin_queue_kind('recovery'), ${id}, now() - interval '1 second', 'rec_test')`;
    const { token, deliveries } = await claim();
    expect(deliveries.map((x) => x.kind).sort()).toEqual([QUEUE_KINDS.scheduled, QUEUE_KINDS.recovery]);
    const recovery = deliveries.find((x) => x.kind === QUEUE_KINDS.recovery)!;
    await recordOutcomes(sql, {
      health: { failureThreshold: 5, openForMs: 30_000, defaultConcurrency: 10 },
      outcomes: [
        {
          attemptId: "att_slot_kept", deliveryId: recovery.id, messageId: recovery.message_id, endpointId: id, consumerId: recovery.consumer_id,
          attemptNumber: 1, trigger: "recovery", success: true, statusCode: 200, error: null, errorDetail: null, responseBody: "", durationMs: 1,
          requestHeaders: {}, url: "http://127.0.0.1/", finishedAt: new Date(), leaseToken: token, next: null,
        },
      ],
    });
    // The scheduled attempt is still out: its row, and so its slot, stay until its own outcome.
    const left = await sql<{ kind: number; leased: boolean }[]>`select kind, lease_token is not null as leased from delivery_queue where delivery_id = ${d!}`;
    expect(left).toEqual([{ kind: QUEUE_KINDS.scheduled, leased: true }]);
    const scheduled = deliveries.find((x) => x.kind === QUEUE_KINDS.scheduled)!;
    await recordOutcomes(sql, {
      health: { failureThreshold: 5, openForMs: 30_000, defaultConcurrency: 10 },
      outcomes: [
        {
          attemptId: "att_slot_late", deliveryId: scheduled.id, messageId: scheduled.message_id, endpointId: id, consumerId: scheduled.consumer_id,
          attemptNumber: 1, trigger: "scheduled", success: false, statusCode: 500, error: null, errorDetail: null, responseBody: "", durationMs: 1,
          requestHeaders: {}, url: "http://127.0.0.1/", finishedAt: new Date(), leaseToken: token, next: { status: "pending", attemptAt: new Date(Date.now() + 60_000) },
        },
      ],
    });
    // Its late failure neither reschedules nor undoes the success.
    expect(await sql`select 1 from delivery_queue where delivery_id = ${d!}`).toHaveLength(0);
    const [delivery] = await sql<{ status: string; next_attempt_at: Date | null }[]>`select status, next_attempt_at from deliveries where id = ${d!}`;
    expect(delivery).toEqual({ status: "succeeded", next_attempt_at: null });
  });
});

describe("claims of live traffic and of recovery items apart (the worker's two lanes)", () => {
  const LIVE = [QUEUE_KINDS.scheduled, QUEUE_KINDS.manual];
  const RECOVERY = [QUEUE_KINDS.recovery];
  const claimKinds = (kinds: readonly (typeof QUEUE_KINDS)[keyof typeof QUEUE_KINDS][], lockWaitMs?: number) =>
    claimDueDeliveries(getSql(), { limit: 100, leaseMs: LEASE_MS, defaultConcurrency: 10, keys: decryptionKeys(getConfig()), kinds, lockWaitMs });

  /** The endpoint's queue as each row's kind, lease and park, in the kinds' order. */
  async function kindsOf(endpointId: string) {
    return getSql()<{ kind: number; leased: boolean; parked: boolean; due: boolean }[]>`
      select kind, lease_token is not null as leased, parked, next_attempt_at <= now() as due
      from delivery_queue where endpoint_id = ${endpointId} order by kind, delivery_id`;
  }

  it("wakes the other workers for what it leaves due, naming its kinds", async () => {
    const id = await endpointWith(3, { max_concurrency: 10 });
    const payloads: string[] = [];
    // Ingest's own wake-up, sent after its commit, may come in late: not the claim's.
    const listening = await getSql().listen(WAKE_CHANNEL, (payload) => payload !== wakePayload([QUEUE_KINDS.scheduled]) && payloads.push(payload));
    try {
      const claimOne = (kinds: readonly (typeof QUEUE_KINDS)[keyof typeof QUEUE_KINDS][]) =>
        claimDueDeliveries(getSql(), { limit: 1, leaseMs: LEASE_MS, defaultConcurrency: 10, keys: decryptionKeys(getConfig()), kinds });
      expect((await claimOne(LIVE)).more).toBe(true);
      await getSql()`update delivery_queue set kind = webhook_admin_queue_kind('recovery') where endpoint_id = ${id} and lease_token is null`;
      expect((await claimOne(RECOVERY)).more).toBe(true);
      await waitFor(() => payloads.length >= 2, { what: "the claims' wake-ups" });
      expect(payloads).toEqual([wakePayload(LIVE), wakePayload(RECOVERY)]);
      expect(payloads.map(kindsOfWake)).toEqual([LIVE, RECOVERY]);
    } finally {
      await listening.unlisten();
    }
  });

  it("claims only the kinds asked for, and a recovery's claim leaves the slots to a live row waiting for one", async () => {
    const id = await endpointWith(5, { max_concurrency: 4 });
    const sql = getSql();
    const rows = await sql<{ id: string }[]>`select id from deliveries where endpoint_id = ${id} order by id`;
    // One live row, due last; four recovery items that have waited longer.
    await sql`delete from delivery_queue where endpoint_id = ${id} and delivery_id <> ${rows[0]!.id}`;
    await sql`insert into delivery_queue (delivery_id, kind, endpoint_id, next_attempt_at)
              select d, webhook_admin_queue_kind('recovery'), ${id}, now() - interval '3 seconds' from unnest(${rows.slice(1).map((r) => r.id)}::text[]) as d`;

    // The recovery lane comes first: it scans no live row, finds one waiting, and takes nothing.
    expect((await claimKinds(RECOVERY)).deliveries).toEqual([]);
    expect(await kindsOf(id)).toEqual([
      { kind: QUEUE_KINDS.scheduled, leased: false, parked: false, due: true },
      ...Array(4).fill({ kind: QUEUE_KINDS.recovery, leased: false, parked: true, due: false }),
    ]);
    // The live lane takes the live row and leaves the recovery items as they were.
    expect((await claimKinds(LIVE)).deliveries.map((d) => [d.id, d.kind])).toEqual([[rows[0]!.id, QUEUE_KINDS.scheduled]]);
    expect((await kindsOf(id)).filter((q) => q.kind === QUEUE_KINDS.recovery)).toEqual(Array(4).fill({ kind: QUEUE_KINDS.recovery, leased: false, parked: true, due: false }));
    // Due again (as an outcome's freed slot would make them): with a live attempt in flight the
    // run takes at most half of the three slots it leaves — one.
    await sql`update delivery_queue set parked = false, next_attempt_at = now() - interval '1 second' where endpoint_id = ${id} and lease_token is null`;
    expect((await claimKinds(RECOVERY)).deliveries.map((d) => d.kind)).toEqual([QUEUE_KINDS.recovery]);
  });

  it("has a live claim wait for an endpoint another transaction holds, for a bound, where a recovery's claim passes it by", async () => {
    const id = await endpointWith(2, { max_concurrency: 10 });
    const sql = getSql();
    const [live, other] = await sql<{ id: string }[]>`select id from deliveries where endpoint_id = ${id} order by id`;
    await sql`delete from delivery_queue where endpoint_id = ${id} and delivery_id = ${other!.id}`;
    await sql`insert into delivery_queue (delivery_id, kind, endpoint_id, next_attempt_at) values (${other!.id}, webhook_admin_queue_kind('recovery'), ${id}, now() - interval '1 second')`;
    const holdEndpoint = () => holdTransaction((tx) => tx`select 1 from endpoints where id = ${id} for update`);
    const lockWaits = async () =>
      (await sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)[0]!.n;

    // A recovery's claim skips the held endpoint: its item stays due, untouched.
    let holder = await holdEndpoint();
    expect((await claimKinds(RECOVERY)).deliveries).toEqual([]);
    expect((await kindsOf(id)).find((q) => q.kind === QUEUE_KINDS.recovery)).toEqual({ kind: QUEUE_KINDS.recovery, leased: false, parked: false, due: true });
    // A live claim waits for it (the bound made long: the test commits when it sees the wait), and
    // takes its row once the holder commits.
    const waiting = claimKinds(LIVE, 60_000);
    for (let i = 0; i < 2000 && (await lockWaits()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    await holder.commit();
    expect((await waiting).deliveries.map((d) => d.id)).toEqual([live!.id]);

    // Held past the bound, the live claim gives up and leaves its row due, not parked.
    await sql`update delivery_queue set lease_token = null, next_attempt_at = now() - interval '1 second' where delivery_id = ${live!.id}`;
    holder = await holdEndpoint();
    expect((await claimKinds(LIVE, 50)).deliveries).toEqual([]);
    expect((await kindsOf(id)).find((q) => q.kind === QUEUE_KINDS.scheduled)).toEqual({ kind: QUEUE_KINDS.scheduled, leased: false, parked: false, due: true });
    await holder.commit();
    expect((await claimKinds(LIVE)).deliveries.map((d) => d.id)).toEqual([live!.id]);
  });

  it("has a live claim that holds some of its endpoints go on without the held ones, not wait for them", async () => {
    const held = await endpointWith(1, { max_concurrency: 10 });
    const free = await endpointWith(1, { max_concurrency: 10 });
    const holder = await holdTransaction((tx) => tx`select 1 from endpoints where id = ${held} for update`);
    // The bound is long: waiting for the held endpoint would hold this claim until the commit below.
    const { deliveries, more } = await claimKinds(LIVE, 60_000);
    expect(deliveries.map((d) => d.endpoint_id)).toEqual([free]);
    // The held endpoint's row is left due, and the claim says so: the worker claims again at once.
    expect(more).toBe(true);
    expect(await kindsOf(held)).toEqual([{ kind: QUEUE_KINDS.scheduled, leased: false, parked: false, due: true }]);
    await holder.commit();
  });
});
