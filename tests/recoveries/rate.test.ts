import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { apiClient, type Api } from "../helpers/api";
import { consumerWithEndpoint, sendMessages } from "../helpers/fixtures";
import { startOutageReceiver, waitFor } from "../helpers/receiver";
import { favourScheduling } from "../helpers/scheduling";
import { spawnWorker } from "../helpers/worker-process";

/**
 * A recovery's `rate_per_second` as the worker sends: not an average over the run, but at most that
 * many attempts started in every one-second window, with a fast receiver and room for many
 * attempts at once (so nothing but the run's own rate holds the attempts back).
 */
// One scheduled attempt: a delivery that fails once is failed for good, ready to recover.
process.env.DELIVERY_SCHEDULE = "0";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";
// The production tick: the feeder queues in steps of a quarter second.
process.env.RECOVERY_TICK = "250ms";
// Full rate at once: the ramp has its own test (tests/recoveries/recoveries.test.ts).
process.env.RECOVERY_RAMP_EVERY = "1ms";

let api: Api;
// A worker process of its own, as in production: the receiver below records arrival times in this
// process, whose event loop then has nothing else to do.
let worker: Awaited<ReturnType<typeof spawnWorker>>;

beforeAll(async () => {
  api = await apiClient();
  worker = await spawnWorker();
  // The sender and the receiver (this process) first in line for a core, so the arrival times are
  // the product's spacing rather than the machine's queue.
  favourScheduling(worker.pid, process.pid);
});
afterAll(async () => {
  await worker.kill();
});

/** The most times any window [t, t + width) holds, t running over every time (a sliding window). */
function busiestWindow(times: number[], width: number): { count: number; from: number } {
  const sorted = [...times].sort((a, b) => a - b);
  let best = { count: 0, from: 0 };
  let end = 0;
  for (let start = 0; start < sorted.length; start++) {
    while (end < sorted.length && sorted[end]! < sorted[start]! + width) end++;
    if (end - start > best.count) best = { count: end - start, from: sorted[start]! };
  }
  return best;
}

describe("a recovery's rate as the worker sends it", () => {
  it("never starts more than rate_per_second attempts in any one-second window", async () => {
    const receiver = await startOutageReceiver({ up: 204 });
    const { endpointId } = await consumerWithEndpoint(api, receiver.url, { consumer: { uid: "pace", name: "Pace" }, endpoint: { max_concurrency: 200 } });
    const since = new Date(Date.now() - 60_000).toISOString();
    const N = 400;
    await sendMessages(api, "pace", N);
    const failed = async () =>
      (await getSql()<{ n: number }[]>`select count(*)::int as n from deliveries where endpoint_id = ${endpointId} and status = 'failed'`)[0]!.n;
    await waitFor(async () => (await failed()) === N, { what: "the failed deliveries", timeout: 60_000 });
    receiver.up = true;
    const first = receiver.received.length;
    // After an outage the endpoint's circuit is often still open when the run starts: the feeder
    // keeps queueing meanwhile, and when the circuit closes, all of that is due at once.
    await getSql()`update endpoints set circuit_open_until = now() + interval '2 seconds' where id = ${endpointId}`;

    const created = await api.post(`/api/v1/endpoints/${endpointId}/recover`, { since, canary: 0, rate_per_second: 40 });
    expect(created.status, created.text).toBe(202);
    const id = created.body.id as string;
    // Waited for at the receiver, not by polling the API: this process only records arrivals meanwhile.
    await waitFor(() => receiver.received.length - first >= N, { what: "every item at the receiver", timeout: 60_000, interval: 250 });
    await waitFor(async () => (await api.get(`/api/v1/recoveries/${id}`)).body.state === "completed", { what: "the run's end" });
    const arrivals = receiver.received.slice(first).map((r) => r.at);
    expect(arrivals).toHaveLength(N);

    // Counted where the worker starts each attempt (its log: the end less the duration), not where
    // the receiver records it: a stall of this process bunches arrivals that left apart.
    const starts = await waitFor(
      async () => {
        const rows = await getSql()<{ at: Date }[]>`
          select created_at - duration_ms * interval '1 millisecond' as at from attempts where endpoint_id = ${endpointId} and trigger = 'recovery'`;
        return rows.length === N ? rows.map((row) => row.at.getTime()) : null;
      },
      { what: "every attempt logged" },
    );
    // 40 in any second, exactly: what docs/recovery.md promises. The claim holds the run to 40 sends
    // in any 1.05 s of the database's clock, the 50 ms for the way from the claim to the start (an
    // item the worker could not start soon after its claim is given back: RECOVERY_LATE_START, its
    // own tests in recoveries.test.ts). Not counted in 1.05 s windows: the bucket's quarter second
    // (10 at once) goes out the moment the burst a window before stops counting, so two bursts 1.05 s
    // apart on the database's clock share a 1.05 s window of starts whenever the first started a
    // millisecond later after its claim than the second — as on any busy machine (44 to 50 starts).
    const busiest = busiestWindow(starts, 1000);
    if (busiest.count > 40) {
      const received = busiestWindow(arrivals, 1000);
      const near = starts.filter((t) => t >= busiest.from - 500 && t < busiest.from + 1500).map((t) => t - busiest.from);
      expect.fail(
        `${busiest.count} attempts started in the second from ${new Date(busiest.from).toISOString()} (the receiver had ${received.count} in its busiest second); ` +
          `starts from 0.5 s before it, in ms from its start: ${near.sort((a, b) => a - b).join(" ")}`,
      );
    }
    // And the run does go at its rate: 400 at 40 a second is ten seconds. The bound only rules out a
    // trickle (ten a second would take 40 s): a loaded machine's stalls stretch the run, never shorten it.
    expect(arrivals[N - 1]! - arrivals[0]!).toBeLessThan(35_000);
    await receiver.close();
  });
});
