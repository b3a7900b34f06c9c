import { beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { advanceRecoveries, feedPolicy } from "../../lib/recoveries/advance-recoveries";
import { apiClient, type Api } from "../helpers/api";
import { consumerWithEndpoints, sendMessages } from "../helpers/fixtures";

/**
 * A recovery run's bounds (issue 42): at most RECOVERY_MAX_ITEMS items, the oldest, said in the
 * create answer; its items frozen RECOVERY_SELECT_BATCH at a time, past the first by the worker's feeder
 * (not in the request); and all of a
 * consumer's running runs together held to RECOVERY_CONSUMER_RATE. No worker runs in this file: the
 * tests tick the feeder themselves, with the worker's policy (feedPolicy).
 */
process.env.RECOVERY_MAX_ITEMS = "5";
process.env.RECOVERY_CONSUMER_RATE = "30";
process.env.RECOVERY_SELECT_BATCH = "2";
// Full rate after a few milliseconds.
process.env.RECOVERY_RAMP_EVERY = "1ms";

let api: Api;
const sql = () => getSql();
const since = "2020-01-01T00:00:00Z";
const tick = () => advanceRecoveries(sql(), feedPolicy(getConfig()));

type RunRow = { state: string; selecting: boolean; expected: number; capped: boolean; current_rate: number | null; items: number };
const runRow = async (id: string) =>
  (await sql()<RunRow[]>`
    select state, selecting, expected, capped, current_rate,
           (select count(*)::int from recovery_items where recovery_id = ${id}) as items
    from recoveries where id = ${id}`)[0]!;

/**
 * Messages `n` to a consumer whose endpoints were disabled when they came, enabled since: every one
 * is a never-attempted candidate of a run with include_never_attempted, with no worker needed.
 */
async function neverAttempted(endpoints: number, n: number) {
  const made = await consumerWithEndpoints(api, Array.from({ length: endpoints }, (_, i) => `http://127.0.0.1:9/bounds-${i}`), {
    endpoint: { disabled: true },
    prefix: "bounds",
  });
  const messages = await sendMessages(api, made.uid, n);
  for (const e of made.endpoints) expect((await api.post(`/api/v1/endpoints/${e.id}/enable`)).status).toBe(200);
  return { ...made, messages };
}

beforeAll(async () => {
  api = await apiClient();
});

describe("a recovery run's bounds", () => {
  it("takes at most RECOVERY_MAX_ITEMS, the oldest, says so, and freezes them a batch at a time, past the first in the worker", async () => {
    const { endpoints, messages } = await neverAttempted(1, 8);
    const created = await api.post(`/api/v1/endpoints/${endpoints[0]!.id}/recover`, { since, include_never_attempted: true, canary: 0 });
    expect(created.status, created.text).toBe(202);
    expect(created.body.counts.expected).toBe(5);
    expect(created.body.selection).toEqual({ selecting: true, item_limit: 5, capped: true });
    const id = created.body.id as string;
    // The request froze one batch; each tick of the feeder freezes the next.
    expect(await runRow(id)).toMatchObject({ state: "planned", selecting: true, items: 2 });
    await tick();
    expect(await runRow(id)).toMatchObject({ state: "planned", selecting: true, items: 4 });
    await tick();
    expect(await runRow(id)).toMatchObject({ state: "planned", selecting: false, items: 5, expected: 5, capped: true });
    const items = await sql()<{ message_id: string }[]>`select message_id from recovery_items where recovery_id = ${id} order by seq`;
    expect(items.map((i) => i.message_id)).toEqual(messages.slice(0, 5));
    // The progress the screens read, as the API answers it.
    const read = await api.get(`/api/v1/recoveries/${id}`);
    expect(read.body.selection).toEqual({ selecting: false, item_limit: 5, capped: true });
    // Selected: the next tick starts it.
    await tick();
    expect((await runRow(id)).state).toBe("running");
  });

  it("a scope within the cap is not capped, and the dry run is unchanged", async () => {
    const { uid } = await neverAttempted(1, 3);
    const dry = await api.post(`/api/v1/consumers/${uid}/recover`, { since, include_never_attempted: true, dry_run: true });
    expect(dry.body.expected).toBe(3);
    const created = await api.post(`/api/v1/consumers/${uid}/recover`, { since, include_never_attempted: true, canary: 0 });
    expect(created.body.counts.expected).toBe(3);
    expect(created.body.selection).toEqual({ selecting: true, item_limit: 5, capped: false });
    await expect.poll(async () => (await tick(), (await runRow(created.body.id)).selecting)).toBe(false);
    expect(await runRow(created.body.id)).toMatchObject({ items: 3, expected: 3, capped: false });
  });

  it("holds all of a consumer's running runs together to RECOVERY_CONSUMER_RATE", async () => {
    const { endpoints } = await neverAttempted(3, 4);
    const ids: string[] = [];
    for (const e of endpoints) {
      const created = await api.post(`/api/v1/endpoints/${e.id}/recover`, { since, include_never_attempted: true, canary: 0, rate_per_second: 100 });
      expect(created.status, created.text).toBe(202);
      ids.push(created.body.id);
    }
    const rates = async () => Promise.all(ids.map(async (id) => (await runRow(id)).current_rate));
    // Each run at its full 100/s would be 300/s for the consumer: three runs share its 30.
    await expect.poll(async () => (await tick(), rates())).toEqual([10, 10, 10]);
    for (let i = 0; i < 3; i++) {
      await tick();
      expect((await rates()).reduce((a, b) => a! + b!, 0)).toBeLessThanOrEqual(30);
    }
  });

  it("counts as never attempted only the messages the endpoint's event types and channels take now", async () => {
    const made = await consumerWithEndpoints(api, ["http://127.0.0.1:9/channels"], { endpoint: { disabled: true, channels: ["billing"] }, prefix: "bounds" });
    for (const channels of [["billing"], ["shipping"], undefined]) {
      const res = await api.post("/api/v1/messages", { consumer: made.uid, event_type: "invoice.paid", payload: {}, ...(channels ? { channels } : {}) });
      expect(res.status).toBe(202);
    }
    expect((await api.post(`/api/v1/endpoints/${made.endpoints[0]!.id}/enable`)).status).toBe(200);
    const dry = await api.post(`/api/v1/endpoints/${made.endpoints[0]!.id}/recover`, { since, include_never_attempted: true, dry_run: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.expected).toBe(1);
  });

  it("skips, as filtered, a never-attempted message the endpoint's payload filter refuses now", async () => {
    const made = await consumerWithEndpoints(api, ["http://127.0.0.1:9/filtered"], { endpoint: { disabled: true, filter: { "data.amount": { $gte: 10 } } }, prefix: "bounds" });
    const endpointId = made.endpoints[0]!.id;
    const sent: Record<string, string> = {};
    for (const amount of [5, 50]) {
      const res = await api.post("/api/v1/messages", { consumer: made.uid, event_type: "invoice.paid", payload: { data: { amount } } });
      expect(res.status).toBe(202);
      sent[amount] = res.body.id;
    }
    expect((await api.post(`/api/v1/endpoints/${endpointId}/enable`)).status).toBe(200);
    const created = await api.post(`/api/v1/endpoints/${endpointId}/recover`, { since, include_never_attempted: true, canary: 0, rate_per_second: 100 });
    expect(created.status, created.text).toBe(202);
    const outcomes = async () =>
      Object.fromEntries(
        (await sql()<{ message_id: string; outcome: string; skip_reason: string | null }[]>`
          select message_id, outcome, skip_reason from recovery_items where recovery_id = ${created.body.id}`).map((i) => [i.message_id, `${i.outcome}:${i.skip_reason}`]),
      );
    await expect.poll(async () => (await tick(), outcomes())).toMatchObject({ [sent[5]!]: "skipped:filtered", [sent[50]!]: "queued:null" });
  });
});
