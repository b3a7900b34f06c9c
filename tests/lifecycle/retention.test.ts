import { describe, expect, it } from "vitest";
import { parseConfig } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { sweep } from "../../lib/maintenance/sweep";
import { systemCtx } from "../../lib/open-ctx";
import { expireMessages } from "../../lib/retention/expire-messages";
import { runRetention } from "../../lib/retention/run-retention";
import { compactStats } from "../../lib/stats/compact-stats";
import { consumerWithEndpoint, sendMessages } from "../helpers/fixtures";
import { lifecycleFixture } from "../helpers/lifecycle";
import { waitFor } from "../helpers/receiver";
import { withWorkerEnv } from "../helpers/worker";

/**
 * Retention (lib/retention, run by the sweep): with RETENTION_PERIOD=2s, a finished message goes
 * with its deliveries, attempts, queue rows and failed_deliveries rows; one with a delivery still
 * pending stays until it ends; the rollup (GET /stats) is untouched; rollup, audit and alert rows
 * go after their own periods; the sweep's cadence is SWEEP_INTERVAL and each run is recorded.
 */
process.env.RETENTION_PERIOD = "2s";
// A failed first attempt retries an hour later: its delivery stays pending for the whole file.
process.env.DELIVERY_SCHEDULE = "0,1h";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";
// The worker's own sweep stays out of the way; the tests sweep when they mean to.
process.env.SWEEP_INTERVAL = "1h";

const t = lifecycleFixture();
let seq = 0;
const sql = () => getSql();

const consumerWith = (url: string) => consumerWithEndpoint(t.api, url, { prefix: "ret" });
const send = (uid: string, n: number) => sendMessages(t.api, uid, n);

/** Rows of each table that hold these messages (by message id, or by their deliveries' ids). */
async function rowsOf(messageIds: string[]) {
  const [row] = await sql()<{ messages: number; deliveries: number; attempts: number; queue: number; failed: number }[]>`
    select (select count(*) from messages where id = any(${messageIds}))::int as messages,
           (select count(*) from deliveries where message_id = any(${messageIds}))::int as deliveries,
           (select count(*) from attempts where message_id = any(${messageIds}))::int as attempts,
           (select count(*) from delivery_queue q join deliveries d on d.id = q.delivery_id where d.message_id = any(${messageIds}))::int as queue,
           (select count(*) from failed_deliveries where message_id = any(${messageIds}))::int as failed`;
  return row!;
}

const statuses = async (messageIds: string[]) =>
  (await sql()<{ status: string }[]>`select status from deliveries where message_id = any(${messageIds}) order by status`).map((d) => d.status);

/** Waits (on the database's clock) until every one of these messages is older than RETENTION_PERIOD. */
async function pastRetention(messageIds: string[]) {
  await expect
    .poll(async () => (await sql()<{ n: number }[]>`select count(*)::int as n from messages where id = any(${messageIds}) and created_at >= now() - interval '2 seconds'`)[0]!.n, {
      timeout: 10_000,
    })
    .toBe(0);
}

describe("the retention sweep", () => {
  it("removes finished messages with their deliveries, attempts and failed rows; keeps pending ones until they end; leaves GET /stats as it was", async () => {
    const succeeded = await consumerWith(t.ok.url);
    const retrying = await consumerWith(t.down.url);
    let failed: string[] = [];
    // Failed for good: one attempt only, under a worker whose schedule has no retry.
    const failing = await consumerWith(t.down.url);
    t.worker = await withWorkerEnv(t.worker!, { DELIVERY_SCHEDULE: "0" }, async () => {
      failed = await send(failing.uid, 2);
      await waitFor(async () => (await statuses(failed)).every((s) => s === "failed"), { what: "failed deliveries" });
    });
    const done = await send(succeeded.uid, 3);
    const pending = await send(retrying.uid, 2);
    await waitFor(async () => (await statuses(done)).every((s) => s === "succeeded"), { what: "successes" });
    await waitFor(async () => (await rowsOf(pending)).attempts === 2, { what: "the first, failed, attempts" });
    expect(await statuses(pending)).toEqual(["pending", "pending"]);
    expect((await rowsOf(failed)).failed).toBe(2);

    // The rollup, folded, over the hour these attempts fell in.
    await compactStats({ ctx: { sql: getSql() } });
    const window = `since=${new Date(Date.now() - 3_600_000).toISOString()}&until=${new Date(Date.now() + 60_000).toISOString()}&bucket=minute`;
    const statsBefore = (await t.api.get(`/api/v1/stats?${window}`)).body;
    const consumerStatsBefore = (await t.api.get(`/api/v1/stats?${window}&consumer=${succeeded.uid}`)).body;
    expect(statsBefore.data.reduce((n: number, b: { attempts: number }) => n + b.attempts, 0)).toBeGreaterThanOrEqual(7);

    await pastRetention([...done, ...pending, ...failed]);
    const result = await sweep({ ctx: systemCtx() });
    expect(result.retention.removed.messages).toBeGreaterThanOrEqual(5);

    expect(await rowsOf(done)).toEqual({ messages: 0, deliveries: 0, attempts: 0, queue: 0, failed: 0 });
    expect(await rowsOf(failed)).toEqual({ messages: 0, deliveries: 0, attempts: 0, queue: 0, failed: 0 });
    // The pending ones stay, whole.
    expect(await rowsOf(pending)).toEqual({ messages: 2, deliveries: 2, attempts: 2, queue: 2, failed: 0 });
    for (const id of done) {
      const gone = await t.api.get(`/api/v1/messages/${id}`);
      expect(gone.status).toBe(404);
      expect(gone.headers.get("content-type")).toBe("application/problem+json");
    }
    const listed = (await t.api.get(`/api/v1/messages?consumer=${succeeded.uid}`)).body.data;
    expect(listed).toEqual([]);
    expect((await t.api.get(`/api/v1/messages/${pending[0]}`)).status).toBe(200);

    // The rollup is apart: the same answers over the same time.
    expect((await t.api.get(`/api/v1/stats?${window}`)).body).toEqual(statsBefore);
    expect((await t.api.get(`/api/v1/stats?${window}&consumer=${succeeded.uid}`)).body).toEqual(consumerStatsBefore);

    // Once the pending deliveries end (their endpoint disabled: canceled), the next sweep takes them.
    expect((await t.api.post(`/api/v1/endpoints/${retrying.endpointId}/disable`)).status).toBe(200);
    await waitFor(async () => (await statuses(pending)).every((s) => s === "canceled"), { what: "canceled deliveries" });
    await sweep({ ctx: systemCtx() });
    expect(await rowsOf(pending)).toEqual({ messages: 0, deliveries: 0, attempts: 0, queue: 0, failed: 0 });

    // Each run is recorded, with what it removed.
    const runs = await sql()<{ removed: Record<string, number>; error: string | null }[]>`select removed, error from sweep_runs order by id desc limit 2`;
    expect(runs.map((r) => r.error)).toEqual([null, null]);
    expect(runs[1]!.removed).toMatchObject({ messages: expect.any(Number), deliveries: expect.any(Number), attempts: expect.any(Number) });
    expect(runs[0]!.removed).toMatchObject({ messages: 2, deliveries: 2, attempts: 2 });
  });

  it("keeps a message whose resend waits in the queue", async () => {
    const { uid, endpointId } = await consumerWith(t.ok.url);
    const [id] = await send(uid, 1);
    await waitFor(async () => (await statuses([id!]))[0] === "succeeded", { what: "a success" });
    await pastRetention([id!]);
    // A resend queued (the worker is stopped, so it stays queued) holds the message back.
    await t.stopWorker();
    try {
      expect((await t.api.post(`/api/v1/messages/${id}/resend`, { endpoint_id: endpointId })).status).toBe(202);
      await runRetention({ ctx: systemCtx() });
      expect((await rowsOf([id!])).messages).toBe(1);
    } finally {
      await t.startWorker();
    }
    await waitFor(async () => (await rowsOf([id!])).queue === 0, { what: "the resend made" });
    await runRetention({ ctx: systemCtx() });
    expect((await rowsOf([id!])).messages).toBe(0);
  });

  it("works in bounded batches, and stops at its deadline with the rest left for the next sweep", async () => {
    const { uid } = await consumerWith(t.ok.url);
    const ids = await send(uid, 5);
    await waitFor(async () => (await statuses(ids)).every((s) => s === "succeeded"), { what: "successes" });
    await pastRetention(ids);
    const cut = await expireMessages({ ctx: systemCtx(), deadline: Date.now() - 1, batchSize: 2 });
    expect(cut.more).toBe(true);
    expect(cut.removed.messages).toBe(2);
    const rest = await expireMessages({ ctx: systemCtx(), deadline: Date.now() + 10_000, batchSize: 2 });
    expect(rest.more).toBe(false);
    expect(rest.removed.messages).toBeGreaterThanOrEqual(3);
    expect((await rowsOf(ids)).messages).toBe(0);
  });

  it("skips a recovery item whose message expired, payload_expired; a finished run expires in turn", async () => {
    const { uid, endpointId } = await consumerWith(t.down.url);
    const ids = await send(uid, 2);
    await waitFor(async () => (await rowsOf(ids)).attempts === 2, { what: "first attempts" });
    expect((await t.api.post(`/api/v1/endpoints/${endpointId}/disable`)).status).toBe(200);
    await waitFor(async () => (await statuses(ids)).every((s) => s === "canceled"), { what: "canceled deliveries" });
    expect((await t.api.post(`/api/v1/endpoints/${endpointId}/enable`)).status).toBe(200);
    await pastRetention(ids);
    // The run is made while no worker feeds it; its messages then expire before their turn.
    await t.stopWorker();
    let runId = "";
    try {
      const run = await t.api.post(`/api/v1/endpoints/${endpointId}/recover`, { since: "2020-01-01T00:00:00Z", statuses: ["canceled"] });
      expect(run.status, run.text).toBe(202);
      runId = run.body.id;
      await runRetention({ ctx: systemCtx() });
      expect((await rowsOf(ids)).messages).toBe(0);
    } finally {
      await t.startWorker();
    }
    const finished = await waitFor(async () => {
      const run = (await t.api.get(`/api/v1/recoveries/${runId}`)).body;
      return run.state === "completed" ? run : null;
    }, { what: "the run completed", timeout: 30_000 });
    expect(finished.counts).toMatchObject({ expected: 2, skipped: 2, succeeded: 0, failed: 0 });
    const items = (await t.api.get(`/api/v1/recoveries/${runId}/items`)).body.data;
    expect(items.map((i: { outcome: string; skip_reason: string }) => `${i.outcome}:${i.skip_reason}`)).toEqual(["skipped:payload_expired", "skipped:payload_expired"]);
    // A finished run is kept RETENTION_PERIOD too, then goes with its items.
    await runRetention({ ctx: systemCtx() });
    expect((await t.api.get(`/api/v1/recoveries/${runId}`)).status).toBe(200);
    await expect
      .poll(async () => (await sql()<{ past: boolean }[]>`select finished_at < now() - interval '2 seconds' as past from recoveries where id = ${runId}`)[0]!.past, { timeout: 10_000 })
      .toBe(true);
    expect((await runRetention({ ctx: systemCtx() })).removed).toMatchObject({ recovery_items: 2, recoveries: 1 });
    const [left] = await sql()<{ n: number }[]>`select count(*)::int as n from recovery_items where recovery_id = ${runId}`;
    expect(left!.n).toBe(0);
    expect((await t.api.get(`/api/v1/recoveries/${runId}`)).status).toBe(404);
  });

  it("keeps hourly rollup rows STATS_RETENTION, minute rows STATS_MINUTE_RETENTION, audit events and alerts AUDIT_RETENTION", async () => {
    const scope = `ep_retention_${++seq}`;
    await sql()`
      insert into attempt_stats (scope, bucket_seconds, t, attempts, succeeded, failed, latency_buckets, latency_counts) values
        (${scope}, 60, date_trunc('minute', now()) - interval '9 days', 1, 1, 0, '{1}', '{1}'),
        (${scope}, 60, date_trunc('minute', now()) - interval '7 days', 1, 1, 0, '{1}', '{1}'),
        (${scope}, 3600, date_trunc('hour', now()) - interval '401 days', 1, 1, 0, '{1}', '{1}'),
        (${scope}, 3600, date_trunc('hour', now()) - interval '399 days', 1, 1, 0, '{1}', '{1}')`;
    await sql()`
      insert into audit_events (id, actor_type, action, target_type, target_id, created_at) values
        (${`aud_old_${seq}`}, 'system', 'test.old', 'test', ${scope}, now() - interval '401 days'),
        (${`aud_new_${seq}`}, 'system', 'test.new', 'test', ${scope}, now() - interval '399 days')`;
    await sql()`
      insert into alerts (id, kind, endpoint_id, status, payload, created_at) values
        (${`alr_old_${seq}`}, 'endpoint.failing', ${scope}, 'sent', '{}', now() - interval '401 days'),
        (${`alr_pending_${seq}`}, 'endpoint.failing', ${scope}, 'pending', '{}', now() - interval '401 days'),
        (${`alr_new_${seq}`}, 'endpoint.failing', ${scope}, 'sent', '{}', now() - interval '399 days')`;
    const removed = (await runRetention({ ctx: systemCtx() })).removed;
    expect(removed).toMatchObject({ attempt_stats: 2, audit_events: 1, alerts: 1 });
    const kept = await sql()<{ bucket_seconds: number; age_days: number }[]>`
      select bucket_seconds, round(extract(epoch from now() - t) / 86400)::int as age_days from attempt_stats where scope = ${scope} order by 1`;
    expect(kept).toEqual([{ bucket_seconds: 60, age_days: 7 }, { bucket_seconds: 3600, age_days: 399 }]);
    expect((await sql()<{ id: string }[]>`select id from audit_events where target_id = ${scope}`).map((r) => r.id)).toEqual([`aud_new_${seq}`]);
    expect((await sql()<{ id: string }[]>`select id from alerts where endpoint_id = ${scope} order by id`).map((r) => r.id)).toEqual([`alr_new_${seq}`, `alr_pending_${seq}`]);
  });

  it("runs every SWEEP_INTERVAL on its own, recording each run", async () => {
    const [before] = await sql()<{ n: number }[]>`select count(*)::int as n from sweep_runs`;
    t.worker = await withWorkerEnv(t.worker!, { SWEEP_INTERVAL: "1s" }, async () => {
      await expect.poll(async () => (await sql()<{ n: number }[]>`select count(*)::int as n from sweep_runs`)[0]!.n, { timeout: 20_000 }).toBeGreaterThanOrEqual(before!.n + 3);
      const last = await sql()<{ gap: number }[]>`
        select extract(epoch from started_at - lag(started_at) over (order by id))::float8 as gap from sweep_runs order by id desc limit 2`;
      // A second apart (not a minute): the cadence is the setting. The bound leaves a loaded machine
      // room to start a sweep late, and is still half the default minute.
      expect(last[0]!.gap).toBeLessThan(30);
    });
  });
});

describe("the retention settings", () => {
  const base = { ENCRYPTION_KEY: "a".repeat(64) };
  it("default to 30d, 1m, 400d, 8d and 400d, and take any duration of at least a second", () => {
    const config = parseConfig(base);
    expect([config.RETENTION_PERIOD, config.SWEEP_INTERVAL, config.STATS_RETENTION, config.STATS_MINUTE_RETENTION, config.AUDIT_RETENTION]).toEqual([
      30 * 86_400_000, 60_000, 400 * 86_400_000, 8 * 86_400_000, 400 * 86_400_000,
    ]);
    expect(parseConfig({ ...base, RETENTION_PERIOD: "1s" }).RETENTION_PERIOD).toBe(1_000);
    expect(() => parseConfig({ ...base, RETENTION_PERIOD: "500ms" })).toThrow(/RETENTION_PERIOD: must be at least 1s/);
    expect(() => parseConfig({ ...base, SWEEP_INTERVAL: "soon" })).toThrow(/SWEEP_INTERVAL/);
  });
});
