import { beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { newId } from "../../lib/ids";
import { systemCtx } from "../../lib/open-ctx";
import { expireRecoveries } from "../../lib/retention/expire-recoveries";
import { DAY_MS, PARTITIONS_AHEAD, RECOVERY_WEEKS, ROLLUP_HOURS, ROLLUP_MINUTES, makePartitions, partitionsOf, startOfDay, type Series } from "../../lib/retention/partitions";
import { trimRollup } from "../../lib/retention/trim-rollup";
import { consumerWithEndpoint, createEndpoint, sendMessage } from "../helpers/fixtures";
import { lifecycleFixture } from "../helpers/lifecycle";
import { waitFor } from "../helpers/receiver";

/**
 * Time partitions of the rollup and of recovery items (migration 0020, ADR 0034): the sweep makes a
 * day of minute rows, a month of hourly rows and a week of recovery runs' items ahead of time, so
 * the compaction's and a new run's rows land in them; a row no partition covers lands in the
 * default partition instead of failing; whole partitions past their retention are dropped (GET
 * /stats by the hour over a dropped day of minute rows answers as before); a week of items goes
 * once every run made in it has expired, a week with a run still kept stays.
 */
process.env.RETENTION_PERIOD = "1d";
process.env.STATS_MINUTE_RETENTION = "2d";
process.env.STATS_RETENTION = "20d";
// The worker's own sweep stays out of the way; the tests make and drop partitions when they mean to.
process.env.SWEEP_INTERVAL = "1h";

const t = lifecycleFixture();
const sql = () => getSql();
const now = Date.now();
const today = startOfDay(now);
const OURS: Series[] = [ROLLUP_MINUTES, ROLLUP_HOURS, RECOVERY_WEEKS];
/** The partition of the first row a `select tableoid::regclass::text as p …` finds. */
const partitionOf = async (rows: Promise<{ p: string }[]>) => (await rows)[0]?.p;
const rollupPartition = (scope: string, bucketSeconds: number) =>
  partitionOf(sql()`select tableoid::regclass::text as p from attempt_stats where scope = ${scope} and bucket_seconds = ${bucketSeconds}`);
const itemsPartition = (runId: string) => partitionOf(sql()`select tableoid::regclass::text as p from recovery_items where recovery_id = ${runId}`);
const names = async (series: Series) => (await partitionsOf(sql(), series)).map((p) => p.name);
const covering = async (series: Series, ms: number) => (await partitionsOf(sql(), series)).find((p) => p.start <= ms && ms < p.end)?.name;

let uid: string;
let consumerId: string;
let endpointId: string;

beforeAll(async () => {
  // Partitions from the past: the file's fresh database holds no rollup row or recovery item yet,
  // so they can be made back there (months from 60 days ago, weeks from 21, days from 6).
  for (const series of OURS) for (const name of await names(series)) await sql().unsafe(`alter table ${series.table} detach partition ${name}; drop table ${name}`);
  await makePartitions({ ctx: systemCtx(), now: now - 60 * DAY_MS, only: [ROLLUP_HOURS] });
  await makePartitions({ ctx: systemCtx(), now: now - 21 * DAY_MS, only: [RECOVERY_WEEKS] });
  await makePartitions({ ctx: systemCtx(), now: now - 6 * DAY_MS, only: [ROLLUP_MINUTES] });
  await makePartitions({ ctx: systemCtx() });
  ({ uid, consumerId, endpointId } = await consumerWithEndpoint(t.api, t.ok.url, { prefix: "rollup" }));
});

/** A finished (or still paused) recovery run made at `at`, with `items` items. */
async function oldRun(at: number, { state = "completed", finishedAt = at + 3_600_000, items = 3 }: { state?: string; finishedAt?: number | null; items?: number } = {}) {
  const id = newId("recovery", at);
  await sql()`
    insert into recoveries (id, consumer_id, endpoint_id, state, scope, options, expected, created_by_type, created_at, finished_at)
    values (${id}, ${consumerId}, ${endpointId}, ${state},
            ${sql().json({ since: new Date(at - DAY_MS).toISOString(), until: new Date(at).toISOString(), event_types: null, statuses: ["failed"], include_never_attempted: false })},
            ${sql().json({ rate_per_second: 10, canary: 10, stop_if_failure_ratio: 0.5 })}, ${items}, 'system', ${new Date(at)}, ${finishedAt === null ? null : new Date(finishedAt)})`;
  await sql()`
    insert into recovery_items (recovery_id, seq, message_id, endpoint_id, consumer_id, outcome)
    select ${id}, n, ${newId("message", at - 1000)}, ${endpointId}, ${consumerId}, 'succeeded' from generate_series(1, ${items}) n`;
  return id;
}

describe("time partitions of the rollup and of recovery items", () => {
  it("are made ahead: minute days, the hourly rows' month and the runs' week up to PARTITIONS_AHEAD days on", async () => {
    const ahead = today + PARTITIONS_AHEAD * DAY_MS;
    for (let d = today; d <= ahead; d += DAY_MS) expect(await covering(ROLLUP_MINUTES, d), `minute day ${d}`).toBeDefined();
    expect(await covering(ROLLUP_HOURS, ahead)).toMatch(/^attempt_stats_h[0-9]{6}01$/);
    expect(await covering(RECOVERY_WEEKS, ahead)).toMatch(/^recovery_items_p[0-9]{8}$/);
    // A week starts on Monday (UTC).
    for (const p of await partitionsOf(sql(), RECOVERY_WEEKS)) expect(new Date(p.start).getUTCDay()).toBe(1);
    // Making them again changes nothing.
    expect(await makePartitions({ ctx: systemCtx(), only: [ROLLUP_MINUTES, ROLLUP_HOURS, RECOVERY_WEEKS] })).toEqual([]);
  });

  it("take the compaction's rows and a new run's items; a row no partition covers lands in the default partition", async () => {
    const sent = await sendMessage(t.api, uid);
    await waitFor(async () => (await sql()`select 1 from attempt_stats where scope = ${endpointId} and bucket_seconds = 3600`).length > 0, {
      what: "the rollup's rows of the attempt",
    });
    const [minute] = await sql()<{ t: Date }[]>`select t from attempt_stats where scope = ${endpointId} and bucket_seconds = 60 limit 1`;
    expect(await rollupPartition(endpointId, 60)).toBe(await covering(ROLLUP_MINUTES, minute!.t.getTime()));
    expect(await rollupPartition(endpointId, 3600)).toBe(await covering(ROLLUP_HOURS, Date.now()));

    // A run for an endpoint made after the message: its one item, in this week's partition.
    const other = await createEndpoint(t.api, uid, t.ok.url);
    const run = await t.api.post(`/api/v1/endpoints/${other.id}/recover`, {
      since: new Date(Date.now() - 3_600_000).toISOString(),
      until: new Date(Date.now() + 60_000).toISOString(),
      include_never_attempted: true,
      rate_per_second: 1000,
    });
    expect(run.status, run.text).toBe(202);
    expect(await itemsPartition(run.body.id as string)).toBe(await covering(RECOVERY_WEEKS, Date.now()));
    expect((await sql()`select 1 from recovery_items where recovery_id = ${run.body.id} and message_id = ${sent.id}`).length).toBe(1);

    // Past every partition made ahead (a sweep that was down for weeks): written all the same.
    const later = Date.now() + 60 * DAY_MS;
    await sql()`
      insert into attempt_stats (scope, bucket_seconds, t, attempts, succeeded, failed, latency_buckets, latency_counts)
      values ('', 60, ${new Date(later)}, 1, 1, 0, '{5}', '{1}'), ('', 3600, ${new Date(later)}, 1, 1, 0, '{5}', '{1}')`;
    const future = await oldRun(later);
    expect(await partitionOf(sql()`select tableoid::regclass::text as p from attempt_stats where t = ${new Date(later)}`)).toBe("attempt_stats_default");
    expect(await itemsPartition(future)).toBe("recovery_items_default");
    await sql()`delete from recoveries where id = ${future}`;
    await sql()`delete from attempt_stats where t = ${new Date(later)}`;
    expect((await sql()`select 1 from recovery_items where recovery_id = ${future}`).length).toBe(0);
  });

  it("drop whole days of minute rows and months of hourly rows past their retention; GET /stats by the hour over them is unchanged", async () => {
    // A day of minute rows with its hourly rows, three days back (past STATS_MINUTE_RETENTION, 2 d).
    const day = today - 3 * DAY_MS;
    const hour = day + 10 * 3_600_000;
    await sql()`
      insert into attempt_stats (scope, bucket_seconds, t, attempts, succeeded, failed, latency_buckets, latency_counts)
      select ${endpointId}, 60, ${new Date(hour)}::timestamptz + make_interval(mins => m), 2, 1, 1, '{5,40}'::smallint[], '{1,1}'::int[] from generate_series(0, 59) m
      union all select ${endpointId}, 3600, ${new Date(hour)}, 120, 60, 60, '{5,40}', '{60,60}'`;
    // And a month of hourly rows that ended more than STATS_RETENTION (20 d) ago.
    const oldMonth = (await partitionsOf(sql(), ROLLUP_HOURS))[0]!;
    expect(oldMonth.end).toBeLessThanOrEqual(now - 20 * DAY_MS);
    await sql()`
      insert into attempt_stats (scope, bucket_seconds, t, attempts, succeeded, failed, latency_buckets, latency_counts)
      values (${endpointId}, 3600, ${new Date(oldMonth.start + DAY_MS)}, 1, 1, 0, '{5}', '{1}')`;
    const minuteDay = await covering(ROLLUP_MINUTES, day);
    expect(await partitionOf(sql()`select tableoid::regclass::text as p from attempt_stats where bucket_seconds = 60 and t = ${new Date(hour)}`)).toBe(minuteDay);

    const query = `/api/v1/stats?endpoint_id=${endpointId}&since=${new Date(day).toISOString()}&until=${new Date(day + DAY_MS).toISOString()}&bucket=hour`;
    const before = await t.api.get(query);
    expect(before.status, before.text).toBe(200);
    expect(before.body.data.find((b: { t: string }) => b.t === new Date(hour).toISOString())).toMatchObject({ attempts: 120, succeeded: 60, failed: 60 });

    const { removed, more } = await trimRollup({ ctx: systemCtx(), deadline: Date.now() + 30_000 });
    expect(more).toBe(false);
    // Every minute day that ended two days ago or more, and every month that ended 20 days ago or
    // more, is gone; the rest stays.
    for (const p of await partitionsOf(sql(), ROLLUP_MINUTES)) expect(p.end, p.name).toBeGreaterThan(Date.now() - 2 * DAY_MS);
    for (const p of await partitionsOf(sql(), ROLLUP_HOURS)) expect(p.end, p.name).toBeGreaterThan(Date.now() - 20 * DAY_MS);
    expect(await names(ROLLUP_MINUTES)).not.toContain(minuteDay);
    expect(await names(ROLLUP_HOURS)).not.toContain(oldMonth.name);
    expect(await covering(ROLLUP_MINUTES, today)).toBeDefined();
    expect(removed.attempt_stats).toBe(61);
    expect(removed.partitions).toBeGreaterThanOrEqual(2);

    const after = await t.api.get(query);
    expect(after.body).toEqual(before.body);
    // By the minute, that time is gone, as it was before partitions (trimmed).
    const minutes = await t.api.get(`/api/v1/stats?endpoint_id=${endpointId}&since=${new Date(hour).toISOString()}&until=${new Date(hour + 3_600_000).toISOString()}&bucket=minute`);
    expect(minutes.body.data.every((b: { attempts: number }) => b.attempts === 0)).toBe(true);
  });

  it("drop a week of items once every run made in it has expired; a week with a run still kept stays, and its expired runs' items go in batches", async () => {
    const weeks = await partitionsOf(sql(), RECOVERY_WEEKS);
    // Two weeks that ended more than RETENTION_PERIOD (1 d) ago.
    const [first, second] = weeks.filter((w) => w.end <= now - 2 * DAY_MS);
    expect(second).toBeDefined();
    const expired = await oldRun(first!.start + DAY_MS);
    const alsoExpired = await oldRun(first!.start + 2 * DAY_MS, { state: "canceled", items: 2 });
    const done = await oldRun(second!.start + DAY_MS);
    const paused = await oldRun(second!.start + 2 * DAY_MS, { state: "paused", finishedAt: null });

    const { removed } = await expireRecoveries({ ctx: systemCtx(), deadline: Date.now() + 30_000 });
    expect(await names(RECOVERY_WEEKS)).not.toContain(first!.name);
    expect(await names(RECOVERY_WEEKS)).toContain(second!.name);
    // The dropped week's 5 items, the finished run's 3 of the kept week (in batches), and three runs.
    expect(removed).toMatchObject({ recovery_items: 8, recoveries: 3 });
    const [left] = await sql()<{ runs: string[]; items: number }[]>`
      select (select coalesce(array_agg(id order by id), '{}') from recoveries where id = any(${[expired, alsoExpired, done, paused]})) as runs,
             (select count(*) from recovery_items where recovery_id = any(${[expired, alsoExpired, done, paused]}))::int as items`;
    expect(left).toEqual({ runs: [paused], items: 3 });

    // Once the paused run is over and expired too, its week goes.
    await sql()`update recoveries set state = 'canceled', finished_at = now() - interval '2 days' where id = ${paused}`;
    await expireRecoveries({ ctx: systemCtx(), deadline: Date.now() + 30_000 });
    expect(await names(RECOVERY_WEEKS)).not.toContain(second!.name);
    expect((await sql()`select 1 from recoveries where id = ${paused}`).length).toBe(0);
  });
});
