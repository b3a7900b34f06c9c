import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { getSql } from "../../lib/db/client";
import { apiClient, type Api } from "../helpers/api";
import { consumerWithEndpoint, sendMessage } from "../helpers/fixtures";
import { startReceiver, waitFor, type Received } from "../helpers/receiver";
import { runTestWorker } from "../helpers/worker";

// Eight attempts with gaps of test size: a head that fails for good does so in about a second.
// A test that must look at a line while its head still fails does not race that second: it holds
// the head's attempt at the receiver (`held` below) until it has looked.
process.env.DELIVERY_SCHEDULE = "0,100ms,100ms,100ms,100ms,100ms,100ms,100ms";
// Longer than any test: a held attempt ends when its test releases it, never at the deadline.
process.env.DELIVERY_TIMEOUT = "60s";
// The breaker has its own tests; here it must not interrupt the schedule.
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";

let api: Api;
beforeAll(async () => {
  api = await apiClient();
});
runTestWorker();

const ordered = (key: string | null = "data.customer") => ({ endpoint: { ordering: "ordered", ordering_key: key, max_concurrency: 10 } });
const seqOf = (r: Received) => (JSON.parse(r.body) as { data: { seq: number } }).data.seq;
const keyOf = (r: Received) => (JSON.parse(r.body) as { data: { customer?: string } }).data.customer ?? "";

const statuses = async (ids: string[]) =>
  (await getSql()<{ message_id: string; status: string }[]>`select message_id, status from deliveries where message_id = any(${ids})`).reduce(
    (all, d) => all.set(d.message_id, d.status),
    new Map<string, string>(),
  );
const allSettled = async (ids: string[]) => {
  const s = await statuses(ids);
  return ids.every((id) => s.get(id) && s.get(id) !== "pending");
};

type Data = { customer?: unknown; seq: number };

/**
 * An answer kept back until the test calls `release`: the attempt stays in flight and its delivery
 * pending, the head of its line, for as long as the test takes to look — however slow the machine.
 * Released when the test ends too, so a failed assertion leaves no attempt for the worker's stop to wait on.
 */
function held() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  onTestFinished(() => release());
  return { released, release };
}

/**
 * A receiver answering 500 to the messages `fails` picks by their `data`, 204 to the others. The
 * first attempt `hold` picks waits for `hold.until` before its answer.
 */
function receiverFailing(fails: (data: Data) => boolean, hold?: { first: (data: Data) => boolean; until: Promise<void> }) {
  let holding = hold;
  return startReceiver(async (_req, res, body) => {
    const { data } = JSON.parse(body) as { data: Data };
    if (holding?.first(data)) {
      const { until } = holding;
      holding = undefined;
      await until;
    }
    res.writeHead(fails(data) ? 500 : 204).end();
  });
}

/** Per key, the sequence numbers of the attempts as they arrived: a line never goes back. */
function arrivalsByKey(received: Received[]) {
  const byKey = new Map<string, number[]>();
  for (const r of received) byKey.set(keyOf(r), [...(byKey.get(keyOf(r)) ?? []), seqOf(r)]);
  return byKey;
}

describe("endpoint ordering fields", () => {
  it("stores ordering and ordering_key, and refuses a bad value or path with 422, changing nothing", async () => {
    const { endpointId } = await consumerWithEndpoint(api, "https://example.com/hook", ordered());
    const read = await api.get(`/api/v1/endpoints/${endpointId}`);
    expect(read.body).toMatchObject({ ordering: "ordered", ordering_key: "data.customer" });
    for (const bad of [
      { ordering: "fifo" },
      { ordering_key: "data..customer" },
      { ordering_key: "data.__proto__.x" },
      { ordering_key: "" },
      { ordering_key: 7 },
      { ordering_key: "x".repeat(300) },
    ]) {
      const res = await api.patch(`/api/v1/endpoints/${endpointId}`, bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
    expect((await api.get(`/api/v1/endpoints/${endpointId}`)).body).toMatchObject({ ordering: "ordered", ordering_key: "data.customer" });
    const changed = await api.patch(`/api/v1/endpoints/${endpointId}`, { ordering_key: null });
    expect(changed.body).toMatchObject({ ordering: "ordered", ordering_key: null });
  });
});

describe("ordered delivery", () => {
  it("attempts each key's messages strictly in creation order through failures, keys side by side", async () => {
    // Every message's first attempt fails, and every third's second too: each line is held by a retry again and again.
    const tries = new Map<number, number>();
    const receiver = await startReceiver((req, res, body) => {
      const seq = (JSON.parse(body) as { data: { seq: number } }).data.seq;
      const n = (tries.get(seq) ?? 0) + 1;
      tries.set(seq, n);
      res.writeHead(n === 1 || (seq % 3 === 0 && n === 2) ? 503 : 204).end();
    });
    const { uid } = await consumerWithEndpoint(api, receiver.url, ordered());
    const ids: string[] = [];
    let seq = 0;
    for (let round = 0; round < 5; round++) {
      for (const customer of ["alice", "bob", "carol"]) ids.push((await sendMessage(api, uid, { payload: { data: { customer, seq: ++seq } } })).id);
    }
    // A batch keeps its order too.
    const batch = await api.post("/api/v1/messages/batch", {
      messages: [1, 2, 3].map(() => ({ consumer: uid, event_type: "invoice.paid", payload: { data: { customer: "alice", seq: ++seq } } })),
    });
    expect(batch.status).toBe(200);
    ids.push(...batch.body.data.map((d: { message: { id: string } }) => d.message.id));

    await waitFor(() => allSettled(ids), { timeout: 60_000, what: "every message settled" });
    expect([...(await statuses(ids)).values()].every((s) => s === "succeeded")).toBe(true);
    for (const [key, arrivals] of arrivalsByKey(receiver.received)) {
      // Retries repeat a number; none comes before one already seen.
      expect(arrivals, key).toEqual([...arrivals].sort((a, b) => a - b));
      expect(new Set(arrivals).size, key).toBe(key === "alice" ? 8 : 5);
    }
    // Keys went side by side: bob's line did not wait for alice's to drain.
    const firstBob = receiver.received.findIndex((r) => keyOf(r) === "bob");
    const lastAlice = receiver.received.map(keyOf).lastIndexOf("alice");
    expect(firstBob).toBeLessThan(lastAlice);
    await receiver.close();
  }, 90_000);

  it("holds a line behind a message until it fails for good, shows who holds it, and lets other keys through", async () => {
    let failing = true;
    // The head's first attempt is held until the line has been read: it is still the head then,
    // however long the reads take; released, it fails its schedule through.
    const head1 = held();
    const receiver = await receiverFailing(({ customer, seq }) => failing && customer === "alice" && seq === 1, { first: ({ seq }) => seq === 1, until: head1.released });
    const { uid, endpointId } = await consumerWithEndpoint(api, receiver.url, ordered());
    const head = (await sendMessage(api, uid, { payload: { data: { customer: "alice", seq: 1 } } })).id;
    await waitFor(() => receiver.received.length >= 1, { what: "the head's first attempt" });
    const behind: string[] = [];
    for (const seq of [2, 3, 4]) behind.push((await sendMessage(api, uid, { payload: { data: { customer: "alice", seq } } })).id);
    const other = (await sendMessage(api, uid, { payload: { data: { customer: "bob", seq: 9 } } })).id;
    await waitFor(() => allSettled([other]), { what: "bob's message, not held by alice's line" });

    const lines = await waitFor(async () => {
      const res = await api.get(`/api/v1/endpoints/${endpointId}/lines`);
      return res.body.lines_waiting === 1 ? res.body : null;
    }, { what: "alice's line waiting" });
    expect(lines).toMatchObject({ ordering: "ordered", lines_waiting: 1, messages_waiting: 3, capped: false, lines: [{ key: "alice", waiting: 3, head: { message_id: head } }] });
    // Nothing behind the head was attempted while it failed.
    expect(receiver.received.filter((r) => keyOf(r) === "alice").every((r) => seqOf(r) === 1)).toBe(true);

    // The head fails for good (its schedule spent); the line moves on, in order.
    head1.release();
    await waitFor(() => allSettled([head, ...behind]), { timeout: 30_000, what: "the line drained" });
    const s = await statuses([head, ...behind]);
    expect(s.get(head)).toBe("failed");
    expect(behind.map((id) => s.get(id))).toEqual(["succeeded", "succeeded", "succeeded"]);
    const alice = receiver.received.filter((r) => keyOf(r) === "alice").map(seqOf);
    expect(alice).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4]);
    expect((await api.get(`/api/v1/endpoints/${endpointId}/lines`)).body).toMatchObject({ lines_waiting: 0, messages_waiting: 0, lines: [] });
    failing = false;
    await receiver.close();
  }, 60_000);

  it("without an ordering key, makes the whole endpoint one line: one attempt at a time", async () => {
    let inFlight = 0;
    let most = 0;
    const receiver = await startReceiver((_req, res) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(204).end();
      }, 30);
    });
    const { uid } = await consumerWithEndpoint(api, receiver.url, ordered(null));
    const batch = await api.post("/api/v1/messages/batch", {
      messages: Array.from({ length: 8 }, (_, i) => ({ consumer: uid, event_type: "invoice.paid", payload: { data: { customer: `c${i}`, seq: i + 1 } } })),
    });
    const ids = batch.body.data.map((d: { message: { id: string } }) => d.message.id);
    await waitFor(() => allSettled(ids), { timeout: 30_000, what: "all delivered" });
    expect(most).toBe(1);
    expect(receiver.received.map(seqOf)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await receiver.close();
  }, 60_000);

  it("payloads without a usable key value share the line named \"\", apart from the keyed ones", async () => {
    // The unkeyed head is held in flight while the lines are read (its schedule would end it in a second).
    const head = held();
    const receiver = await receiverFailing(({ seq }) => seq === 1, { first: ({ seq }) => seq === 1, until: head.released });
    const { uid, endpointId } = await consumerWithEndpoint(api, receiver.url, ordered());
    await sendMessage(api, uid, { payload: { data: { seq: 1 } } });
    await sendMessage(api, uid, { payload: { data: { customer: { nested: true }, seq: 2 } } });
    const keyed = (await sendMessage(api, uid, { payload: { data: { customer: 42, seq: 3 } } })).id;
    await waitFor(() => allSettled([keyed]), { what: "the keyed message, not held" });
    const lines = await waitFor(async () => {
      const res = await api.get(`/api/v1/endpoints/${endpointId}/lines`);
      return res.body.lines_waiting === 1 ? res.body : null;
    }, { what: "the unkeyed line waiting" });
    expect(lines.lines).toMatchObject([{ key: "", waiting: 1 }]);
    expect(receiver.received.some((r) => seqOf(r) === 2)).toBe(false);
    head.release();
    await receiver.close();
  }, 60_000);

  it("turned off, releases every held message at once", async () => {
    let stuck = true;
    // The head's first attempt is held in flight while ordering is turned off around it.
    const head1 = held();
    const receiver = await receiverFailing(({ seq }) => stuck && seq === 1, { first: ({ seq }) => seq === 1, until: head1.released });
    const { uid, endpointId } = await consumerWithEndpoint(api, receiver.url, ordered());
    const head = (await sendMessage(api, uid, { payload: { data: { customer: "a", seq: 1 } } })).id;
    const behind: string[] = [];
    for (const seq of [2, 3]) behind.push((await sendMessage(api, uid, { payload: { data: { customer: "a", seq } } })).id);
    await waitFor(async () => (await api.get(`/api/v1/endpoints/${endpointId}/lines`)).body.messages_waiting === 2, { what: "two held" });
    const off = await api.patch(`/api/v1/endpoints/${endpointId}`, { ordering: "none" });
    expect(off.body.ordering).toBe("none");
    await waitFor(() => allSettled(behind), { what: "the held messages delivered while the head is still out" });
    expect((await statuses([head])).get(head)).toBe("pending");
    // Released once the receiver is healthy: that attempt delivers it.
    stuck = false;
    head1.release();
    await waitFor(() => allSettled([head]), { timeout: 30_000, what: "the head delivered" });
    expect((await statuses([head])).get(head)).toBe("succeeded");
    await receiver.close();
  }, 60_000);

  it("disabling ends the line's wait (canceled, for a recovery to replay in order); enabled, the next message goes at once", async () => {
    let inFlight = 0;
    let most = 0;
    // The head's retry is held in flight until the endpoint is disabled: the line still waits on it
    // then, however long the calls take (its schedule alone would end it in under a second).
    const retry = held();
    let headAttempts = 0;
    const receiver = await startReceiver(async (_req, res, body) => {
      const { seq } = (JSON.parse(body) as { data: { seq: number } }).data;
      inFlight += 1;
      most = Math.max(most, inFlight);
      if (seq === 1 && ++headAttempts === 2) await retry.released;
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(seq === 1 ? 500 : 204).end();
      }, 40);
    });
    const { uid, endpointId } = await consumerWithEndpoint(api, receiver.url, ordered());
    const since = new Date(Date.now() - 1000).toISOString();
    const ids = [(await sendMessage(api, uid, { payload: { data: { customer: "a", seq: 1 } } })).id];
    for (const seq of [2, 3]) ids.push((await sendMessage(api, uid, { payload: { data: { customer: "a", seq } } })).id);
    await waitFor(() => receiver.received.length >= 2, { what: "the head retried" });
    expect((await api.post(`/api/v1/endpoints/${endpointId}/disable`, {})).status).toBe(200);
    // Its outcome, a failure, schedules a retry that the next claim cancels.
    retry.release();
    await waitFor(() => allSettled(ids), { timeout: 30_000, what: "the line canceled" });
    expect((await api.get(`/api/v1/endpoints/${endpointId}/lines`)).body.messages_waiting).toBe(0);
    expect((await api.post(`/api/v1/endpoints/${endpointId}/enable`, {})).status).toBe(200);
    const next = (await sendMessage(api, uid, { payload: { data: { customer: "a", seq: 4 } } })).id;
    await waitFor(async () => (await statuses([next])).get(next) === "succeeded", { what: "the next message after enabling" });

    // A recovery replays the canceled ones, one at a time per key, oldest first (seq 1 still fails).
    receiver.received.length = 0;
    most = 0;
    const run = await api.post(`/api/v1/endpoints/${endpointId}/recover`, { since, statuses: ["canceled"], canary: 0, rate_per_second: 1000 });
    expect(run.status).toBe(202);
    await waitFor(async () => (await api.get(`/api/v1/recoveries/${run.body.id}`)).body.state === "completed", { timeout: 30_000, what: "the recovery done" });
    expect(receiver.received.map(seqOf)).toEqual([1, 2, 3]);
    expect(most).toBe(1);
    await receiver.close();
  }, 60_000);

  it("keeps the line through the endpoint's rate limit: a parked head stays the head", async () => {
    const receiver = await startReceiver();
    const { uid } = await consumerWithEndpoint(api, receiver.url, { endpoint: { ordering: "ordered", ordering_key: "data.customer", rate_limit_per_second: 2 } });
    const batch = await api.post("/api/v1/messages/batch", {
      messages: Array.from({ length: 6 }, (_, i) => ({ consumer: uid, event_type: "invoice.paid", payload: { data: { customer: i % 2 ? "b" : "a", seq: i + 1 } } })),
    });
    const ids = batch.body.data.map((d: { message: { id: string } }) => d.message.id);
    await waitFor(() => allSettled(ids), { timeout: 30_000, what: "all delivered at 2 a second" });
    const byKey = arrivalsByKey(receiver.received);
    expect(byKey.get("a")).toEqual([1, 3, 5]);
    expect(byKey.get("b")).toEqual([2, 4, 6]);
    await receiver.close();
  }, 60_000);

  it("an expunged head leaves its line: the next message goes", async () => {
    // The head's first attempt is held in flight while it is expunged: it is still the head then,
    // not failed for good by its schedule. Its late outcome changes nothing (its queue row is gone).
    const head1 = held();
    const receiver = await receiverFailing(({ seq }) => seq === 1, { first: ({ seq }) => seq === 1, until: head1.released });
    const { uid, endpointId } = await consumerWithEndpoint(api, receiver.url, ordered());
    const head = (await sendMessage(api, uid, { payload: { data: { customer: "a", seq: 1 } } })).id;
    const next = (await sendMessage(api, uid, { payload: { data: { customer: "a", seq: 2 } } })).id;
    await waitFor(async () => (await api.get(`/api/v1/endpoints/${endpointId}/lines`)).body.messages_waiting === 1, { what: "the second held" });
    expect((await api.del(`/api/v1/messages/${head}/payload`)).status).toBe(204);
    await waitFor(async () => (await statuses([next])).get(next) === "succeeded", { what: "the next delivered" });
    expect((await statuses([head])).get(head)).toBe("canceled");
    head1.release();
    await receiver.close();
  }, 60_000);

  it("a manual resend goes at once, past a held line", async () => {
    // The held line's head (seq 2) is held in flight until the resend has been seen: the line still
    // waits on it then, not released by its schedule running out.
    const head = held();
    const receiver = await receiverFailing(({ seq }) => seq === 2, { first: ({ seq }) => seq === 2, until: head.released });
    const { uid, endpointId } = await consumerWithEndpoint(api, receiver.url, ordered());
    const first = (await sendMessage(api, uid, { payload: { data: { customer: "a", seq: 1 } } })).id;
    await waitFor(() => allSettled([first]), { what: "the first delivered" });
    await sendMessage(api, uid, { payload: { data: { customer: "a", seq: 2 } } });
    await sendMessage(api, uid, { payload: { data: { customer: "a", seq: 3 } } });
    await waitFor(async () => (await api.get(`/api/v1/endpoints/${endpointId}/lines`)).body.messages_waiting === 1, { what: "one held" });
    const resent = await api.post(`/api/v1/messages/${first}/resend`, { endpoint_id: endpointId });
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ trigger: "manual", out_of_order: true });
    await waitFor(() => receiver.received.filter((r) => seqOf(r) === 1).length === 2, { what: "the resend, out of order" });
    expect(receiver.received.some((r) => seqOf(r) === 3)).toBe(false);
    head.release();
    await receiver.close();
  }, 60_000);
});
