import { afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { getConfig } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { QUEUE_KINDS } from "../../lib/db/schema/messages";
import { claimDueDeliveries, type ClaimedDelivery } from "../../lib/deliveries/claim-due-deliveries";
import { OutcomeWriter } from "../../lib/deliveries/outcome-writer";
import { releaseLeases } from "../../lib/deliveries/release-leases";
import { decryptionKeys } from "../../lib/crypto/encryption";
import { newId } from "../../lib/ids";
import { advanceRecoveries, feedPolicy } from "../../lib/recoveries/advance-recoveries";
import { apiClient, type Api } from "../helpers/api";
import { consumerWithEndpoint, sendMessage, sendMessages } from "../helpers/fixtures";
import { holdTransaction } from "../helpers/held-transaction";
import { waitFor } from "../helpers/receiver";

/**
 * The worker's two writers beside the claim, driven by hand against real queue rows (no worker runs
 * in this file): the outcome writer's follow-ups (endpoint.failing, auto-disable), which run beside
 * the writes and are waited for by drained(); and the give-back of claimed rows (releaseLeases),
 * which only touches rows still held under its lease and hands their slots to parked deliveries.
 */
const HEALTH = { failureThreshold: 1000, openForMs: 30_000, defaultConcurrency: 10 };
let api: Api;

beforeAll(async () => {
  api = await apiClient();
});

// Each test claims from an empty queue.
afterEach(async () => {
  await getSql()`delete from delivery_queue`;
});

const claim = (limit = 100) => claimDueDeliveries(getSql(), { limit, leaseMs: 30_000, defaultConcurrency: 10, keys: decryptionKeys(getConfig()) });

/**
 * An endpoint failing for two hours (past ALERT_FAILING_AFTER's hour), whose one message was
 * delivered and is now resent by hand: the resend is queued, due. Its outcome writes nothing to the
 * job queue (no retry to schedule, no alert of its own), so a lock on that queue holds up only the
 * follow-up's endpoint.failing.
 */
async function failingEndpointWithResend() {
  const { uid, endpointId } = await consumerWithEndpoint(api, "http://127.0.0.1:9/hook", { prefix: "writer" });
  const { id: messageId } = await sendMessage(api, uid);
  await getSql()`delete from delivery_queue where endpoint_id = ${endpointId}`;
  await getSql()`update deliveries set status = 'failed', next_attempt_at = null where endpoint_id = ${endpointId}`;
  await getSql()`update endpoints set failing_since = now() - interval '2 hours', consecutive_failures = 3 where id = ${endpointId}`;
  const resend = await api.post(`/api/v1/messages/${messageId}/resend`, { endpoint_id: endpointId });
  expect(resend.status, resend.text).toBe(202);
  return endpointId;
}

/** A claimed delivery's attempt, answered 503. A manual one (`next` null) leaves the delivery's schedule alone. */
function failed(d: ClaimedDelivery, token: string, trigger: "manual" | "recovery" = "manual") {
  return {
    attemptId: newId("attempt"),
    deliveryId: d.id,
    messageId: d.message_id,
    endpointId: d.endpoint_id,
    consumerId: d.consumer_id,
    attemptNumber: 2,
    trigger,
    success: false,
    statusCode: 503,
    error: null,
    errorDetail: null,
    responseBody: "down",
    durationMs: 3,
    requestHeaders: { "webhook-id": d.message_id },
    url: d.route.where,
    finishedAt: new Date(),
    leaseToken: token,
    next: null,
  };
}

const alerted = async (endpointIds: string[]) =>
  (await getSql()<{ id: string }[]>`select id from endpoints where id = any(${endpointIds}) and failing_alerted_at is not null`).map((e) => e.id).sort();

/** Until some backend waits for a lock on `table` (polled on the database). */
async function someoneWaitsFor(table: string) {
  await expect
    .poll(async () => {
      const [row] = await getSql()<{ n: number }[]>`
        select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation where not l.granted and c.relname = ${table}`;
      return row!.n;
    })
    .toBeGreaterThan(0);
}

describe("the outcome writer's follow-ups", () => {
  it("raise endpoint.failing beside the writes; drained() waits for them, and failures written meanwhile are followed up after", async () => {
    const first = await failingEndpointWithResend();
    const more = [await failingEndpointWithResend(), await failingEndpointWithResend()];
    // Everything is claimed before the job queue is taken: a claim may add a job of its own (the
    // lease's wake-up, once per second of lease end), which would wait on the lock this test holds.
    const { token, deliveries } = await claim();
    expect(deliveries.map((d) => [d.endpoint_id, d.kind]).sort()).toEqual([first, ...more].sort().map((id) => [id, QUEUE_KINDS.manual]));
    const byEndpoint = (id: string) => deliveries.find((d) => d.endpoint_id === id)!;
    const writer = new OutcomeWriter(getSql(), getConfig(), HEALTH, () => {});
    // The job queue taken: endpoint.failing (a job for the alert fan-out) waits; outcome writes do not.
    const held = await holdTransaction((tx) => tx`lock table graphile_worker._private_jobs in exclusive mode`);
    // A test that fails or times out still lets go of the lock, so the tests after it do not wait on it.
    onTestFinished(() => held.commit());
    let drained = false;
    let waiting: Promise<void> | undefined;
    try {
      await writer.write(failed(byEndpoint(first), token));
      expect(await getSql()`select 1 from attempts where delivery_id = ${byEndpoint(first).id}`).toHaveLength(1);
      waiting = writer.drained().then(() => void (drained = true));
      await someoneWaitsFor("_private_jobs");
      // Two more endpoints fail while the follow-up waits: their outcomes are written at once.
      await Promise.all(more.map((id) => writer.write(failed(byEndpoint(id), token))));
      expect(await getSql()`select 1 from attempts where delivery_id = any(${more.map((id) => byEndpoint(id).id)})`).toHaveLength(2);
      expect(drained).toBe(false);
      expect(await alerted([first, ...more])).toEqual([]);
      await held.commit();
      // drained() resolves only once the follow-ups are done, those of the failures written meanwhile too.
      await waiting;
      expect(await alerted([first, ...more])).toEqual([first, ...more].sort());
    } finally {
      await held.commit();
      await waiting;
    }
  });
});

describe("live outcomes beside a recovery's", () => {
  it("are written while a recovery item's outcome waits for its run's row", async () => {
    // A recovery with an item claimed: its endpoint's deliveries failed, the run fed until it queued one.
    const run = await consumerWithEndpoint(api, "http://127.0.0.1:9/hook", { prefix: "writer-run" });
    await sendMessages(api, run.uid, 2);
    await getSql()`delete from delivery_queue where endpoint_id = ${run.endpointId}`;
    await getSql()`update deliveries set status = 'failed', attempts = 1, next_attempt_at = null where endpoint_id = ${run.endpointId}`;
    const created = await api.post(`/api/v1/endpoints/${run.endpointId}/recover`, { since: new Date(Date.now() - 3_600_000).toISOString(), canary: 0 });
    expect(created.status, created.text).toBe(202);
    const runId = created.body.id as string;
    const recoveryClaim = () =>
      claimDueDeliveries(getSql(), { limit: 1, leaseMs: 30_000, defaultConcurrency: 10, keys: decryptionKeys(getConfig()), kinds: [QUEUE_KINDS.recovery] });
    // The run's token bucket starts empty and fills with time: fed and claimed until an item comes.
    const item = await waitFor(
      async () => {
        await advanceRecoveries(getSql(), { ...feedPolicy(getConfig()), rampEveryMs: 1 });
        const claimed = await recoveryClaim();
        return claimed.deliveries.length > 0 ? { token: claimed.token, delivery: claimed.deliveries[0]! } : null;
      },
      { what: "a recovery item claimed" },
    );
    // And a live resend at another endpoint, claimed.
    const other = await failingEndpointWithResend();
    const live = await claimDueDeliveries(getSql(), { limit: 10, leaseMs: 30_000, defaultConcurrency: 10, keys: decryptionKeys(getConfig()), kinds: [QUEUE_KINDS.scheduled, QUEUE_KINDS.manual] });
    expect(live.deliveries.map((d) => d.endpoint_id)).toEqual([other]);

    const writer = new OutcomeWriter(getSql(), getConfig(), HEALTH, () => {});
    // The run's row held, as its feeder holds it while it queues items.
    const held = await holdTransaction((tx) => tx`select 1 from recoveries where id = ${runId} for update`);
    onTestFinished(() => held.commit());
    const written = (deliveryId: string) => getSql()`select 1 from attempts where delivery_id = ${deliveryId}`;
    let recoveryWrite: Promise<void> | undefined;
    try {
      recoveryWrite = writer.write(failed(item.delivery, item.token, "recovery"));
      await expect
        .poll(async () => (await getSql()`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%from recoveries where id = any%'`).length)
        .toBeGreaterThan(0);
      // The live outcome is written (and its slot freed) while the recovery's waits. (Behind it, in
      // one stream, it would wait for as long as the row is held: the poll's bound ends the test.)
      const liveWrite = writer.write(failed(live.deliveries[0]!, live.token));
      await expect.poll(async () => (await written(live.deliveries[0]!.id)).length, { timeout: 30_000 }).toBe(1);
      await liveWrite;
      expect(await written(item.delivery.id)).toHaveLength(0);
    } finally {
      await held.commit();
      await recoveryWrite;
    }
    expect(await written(item.delivery.id)).toHaveLength(1);
    const [counts] = await getSql()<{ failed: number }[]>`select failed from recoveries where id = ${runId}`;
    expect(counts!.failed).toBe(1);
    await writer.drained();
  });
});

describe("giving claimed rows back (releaseLeases)", () => {
  it("makes only rows still held under its lease due again, and hands their slots to deliveries parked for one", async () => {
    const { uid, endpointId } = await consumerWithEndpoint(api, "http://127.0.0.1:9/hook", { prefix: "release" });
    await getSql()`update endpoints set max_concurrency = 2 where id = ${endpointId}`;
    await sendMessages(api, uid, 4);
    const { token, deliveries } = await claim();
    expect(deliveries).toHaveLength(2);
    const queue = () =>
      getSql()<{ delivery_id: string; leased: boolean; parked: boolean; due: boolean }[]>`
        select delivery_id, lease_token is not null as leased, parked, next_attempt_at <= now() as due from delivery_queue where endpoint_id = ${endpointId} order by delivery_id`;
    // The other two wait parked for a slot.
    expect((await queue()).filter((q) => q.parked)).toHaveLength(2);

    // Another lease's token changes nothing.
    await releaseLeases(getSql(), { token: "not-the-lease", deliveries, health: HEALTH });
    expect((await queue()).filter((q) => q.leased)).toHaveLength(2);

    // One given back: due at once, unleased, and a parked delivery woken for the slot it frees.
    await releaseLeases(getSql(), { token, deliveries: [deliveries[0]!], health: HEALTH });
    const after = await queue();
    expect(after.find((q) => q.delivery_id === deliveries[0]!.id)).toMatchObject({ leased: false, parked: false, due: true });
    expect(after.filter((q) => q.leased).map((q) => q.delivery_id)).toEqual([deliveries[1]!.id]);
    expect(after.filter((q) => q.parked)).toHaveLength(1);
    // The next claim takes the given-back row and the woken one: two due, one slot free.
    const again = await claim();
    expect(again.deliveries).toHaveLength(1);
  });

  it("is retried whole when PostgreSQL ends it for a deadlock", async () => {
    const { uid, endpointId } = await consumerWithEndpoint(api, "http://127.0.0.1:9/hook", { prefix: "release" });
    await sendMessages(api, uid, 1);
    const { token, deliveries } = await claim();
    // The first give-back's update of the queue row fails as a deadlock would (a sequence counts the
    // tries: it is not rolled back with them); the retry goes through.
    await getSql().unsafe(`
      create sequence release_tries;
      create function release_deadlock_once() returns trigger language plpgsql as $$
      begin
        if nextval('release_tries') = 1 then
          raise exception 'deadlock detected (test)' using errcode = '40P01';
        end if;
        return new;
      end $$;
      create trigger release_deadlock_once before update on delivery_queue for each row
        when (old.lease_token is not null and new.lease_token is null) execute function release_deadlock_once();`);
    try {
      await releaseLeases(getSql(), { token, deliveries, health: HEALTH });
    } finally {
      await getSql().unsafe("drop trigger release_deadlock_once on delivery_queue");
    }
    const [tries] = await getSql()<{ n: number }[]>`select last_value::int as n from release_tries`;
    expect(tries!.n).toBe(2);
    const [row] = await getSql()<{ leased: boolean }[]>`select lease_token is not null as leased from delivery_queue where endpoint_id = ${endpointId}`;
    expect(row).toEqual({ leased: false });
  });
});
