import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import type { Ctx } from "../../lib/context";
import { recordOutcomes, type AttemptOutcome } from "../../lib/deliveries/record-outcomes";
import { BUCKET_COUNT, bucketLow, bucketOf, bucketWidth } from "../../lib/stats/histogram";
import { compactStats } from "../../lib/stats/compact-stats";
import { getStats } from "../../lib/stats/queries";
import { apiClient, type Api } from "../helpers/api";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";
import { openCtx } from "../../lib/open-ctx";

// Three attempts a delivery, quickly: failures retry, and some deliveries end failed.
process.env.DELIVERY_SCHEDULE = "0,50ms,50ms";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";

let api: Api;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
const ids = { a: "", b: "", a1: "", a2: "", b1: "" };
let runStart: Date;

// Deterministic "random" answers: each receiver waits and fails by its own sequence.
function answering(seed: number, maxDelayMs: number, failEvery: number) {
  let s = seed;
  return startReceiver((_req, res, _body, i) => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const fail = failEvery > 0 && i % failEvery === 0;
    setTimeout(() => res.writeHead(fail ? 500 : 200).end("ok"), Math.floor((s / 2 ** 31) * maxDelayMs));
  });
}

beforeAll(async () => {
  api = await apiClient();
  worker = await startTestWorker();
  receivers.push(await answering(1, 30, 0), await answering(2, 120, 3), await answering(3, 60, 4));
  ids.a = (await createConsumer(api, { uid: "stats-a", name: "A" })).id;
  ids.b = (await createConsumer(api, { uid: "stats-b", name: "B" })).id;
  ids.a1 = (await createEndpoint(api, "stats-a", receivers[0]!.url)).id;
  ids.a2 = (await createEndpoint(api, "stats-a", receivers[1]!.url)).id;
  ids.b1 = (await createEndpoint(api, "stats-b", receivers[2]!.url)).id;
  runStart = new Date();
  for (let i = 0; i < 120; i++) {
    for (const consumer of ["stats-a", "stats-b"]) {
      await sendMessage(api, consumer, { event_type: "order.paid", payload: { i } });
    }
    // Folded once mid-run, while outcomes are being written: later rows then merge into folded ones.
    if (i === 60) await foldAll();
  }
  const sql = getSql();
  // Every delivery ended (a queue row goes in the transaction that writes its last attempt).
  await waitFor(async () => (await sql`select 1 from delivery_queue limit 1`).length === 0, { timeout: 60_000, what: "all deliveries ended" });
});

afterAll(async () => {
  await worker.stop();
  for (const r of receivers) await r.close();
});

type Count = { key: string; attempts: number; succeeded: number; failed: number };
type Bin = { key: string; k: number; n: number };

/** Per endpoint and minute, from the rollup (folded and appended rows, read in one statement). */
async function rollupByEndpointMinute(): Promise<{ counts: Count[]; bins: Bin[] }> {
  const rows = await getSql()<{ key: string; attempts: number; succeeded: number; failed: number; ks: number[]; ns: number[] }[]>`
    with r as (
      select scope as endpoint_id, t as minute, attempts, succeeded, failed, latency_buckets, latency_counts
      from attempt_stats where bucket_seconds = 60 and scope like 'ep\\_%'
      union all
      select endpoint_id, minute, attempts, succeeded, failed, latency_buckets, latency_counts from attempt_stats_pending
    )
    select endpoint_id || ' ' || minute::text as key, sum(attempts)::int as attempts, sum(succeeded)::int as succeeded, sum(failed)::int as failed,
           (select array_agg(k order by k) from (select k from r r2, unnest(r2.latency_buckets, r2.latency_counts) u(k, n)
              where r2.endpoint_id = r.endpoint_id and r2.minute = r.minute group by k) x) as ks,
           (select array_agg(n order by k) from (select k, sum(n)::int as n from r r2, unnest(r2.latency_buckets, r2.latency_counts) u(k, n)
              where r2.endpoint_id = r.endpoint_id and r2.minute = r.minute group by k) x) as ns
    from r group by endpoint_id, minute order by key`;
  return {
    counts: rows.map(({ key, attempts, succeeded, failed }) => ({ key, attempts, succeeded, failed })),
    bins: rows.flatMap((r) => r.ks.map((k, i) => ({ key: r.key, k, n: r.ns[i]! }))),
  };
}

/** The same, counted directly over the attempts. */
async function directByEndpointMinute(): Promise<{ counts: Count[]; bins: Bin[] }> {
  const sql = getSql();
  const counts = await sql<Count[]>`
    select endpoint_id || ' ' || date_trunc('minute', created_at, 'UTC')::text as key, count(*)::int as attempts,
           (count(*) filter (where success))::int as succeeded, (count(*) filter (where not success))::int as failed
    from attempts group by endpoint_id, date_trunc('minute', created_at, 'UTC') order by key`;
  const bins = await sql<Bin[]>`
    select endpoint_id || ' ' || date_trunc('minute', created_at, 'UTC')::text as key, webhook_admin_latency_bucket(duration_ms)::int as k, count(*)::int as n
    from attempts group by 1, 2 order by 1, 2`;
  return { counts: [...counts], bins: [...bins] };
}

/** Folds until nothing is left appended (a worker's own compaction may hold the turn). */
async function foldAll() {
  const sql = getSql();
  await waitFor(async () => (await compactStats({ ctx: { sql } })) !== null && (await sql`select 1 from attempt_stats_pending limit 1`).length === 0, {
    what: "compaction",
  });
}

/** percentile_cont over the attempts, and how far a histogram's reading of it may be off. */
async function exactPercentile(where: { endpointId: string; from: Date; to: Date }, p: number) {
  const [row] = await getSql()<{ values: number[] }[]>`
    select array_agg(duration_ms order by duration_ms) as values from attempts
    where endpoint_id = ${where.endpointId} and created_at >= ${where.from} and created_at < ${where.to}`;
  const values = row!.values;
  const rank = p * (values.length - 1);
  const lo = values[Math.floor(rank)]!;
  const hi = values[Math.ceil(rank)]!;
  const exact = lo + (rank - Math.floor(rank)) * (hi - lo);
  // Each of the two values is read as its bucket's middle; the answer is rounded to a millisecond.
  return { exact, tolerance: Math.max(bucketWidth(bucketOf(lo)), bucketWidth(bucketOf(hi))) / 2 + 0.5 };
}

const minuteOf = (d: Date) => new Date(Math.floor(d.getTime() / 60_000) * 60_000);

describe("stats rollup", () => {
  it("assigns latency buckets in SQL exactly as lib/stats/histogram.ts reads them", async () => {
    const probes: { ms: number; bucket: number }[] = [{ ms: -3, bucket: 0 }, { ms: 2 ** 31 - 1, bucket: BUCKET_COUNT - 1 }];
    for (let b = 0; b < BUCKET_COUNT; b++) probes.push({ ms: bucketLow(b), bucket: b }, { ms: bucketLow(b) + bucketWidth(b) - 1, bucket: b });
    const got = await getSql()<{ bucket: number }[]>`
      select webhook_admin_latency_bucket(ms)::int as bucket from unnest(${probes.map((p) => p.ms)}::int[]) with ordinality as u(ms, i) order by i`;
    expect(got.map((r) => r.bucket)).toEqual(probes.map((p) => p.bucket));
  });

  it("equals a direct count over the attempts after a run with failures, per endpoint and minute, before and after compaction", async () => {
    const direct = await directByEndpointMinute();
    expect(direct.counts.reduce((a, c) => a + c.failed, 0)).toBeGreaterThan(20);
    expect(new Set(direct.counts.map((c) => c.key.split(" ")[0])).size).toBe(3);
    expect(await rollupByEndpointMinute()).toEqual(direct);

    await foldAll();
    expect(await getSql()`select 1 from attempt_stats_pending`).toHaveLength(0);
    expect(await rollupByEndpointMinute()).toEqual(direct);
    // The hourly, per-consumer and overall series are folded from the same rows.
    const mismatched = await getSql()`
      with direct as (
        select case when grouping(endpoint_id) = 0 then endpoint_id when grouping(consumer_id) = 0 then consumer_id else '' end as scope,
               case when grouping(minute) = 0 then 60 else 3600 end as bucket_seconds, coalesce(minute, hour) as t,
               count(*)::int as attempts, (count(*) filter (where success))::int as succeeded, (count(*) filter (where not success))::int as failed
        from (select *, date_trunc('minute', created_at, 'UTC') as minute, date_trunc('hour', created_at, 'UTC') as hour from attempts) a
        group by grouping sets ((endpoint_id, minute), (endpoint_id, hour), (consumer_id, minute), (consumer_id, hour), (minute), (hour))
      ),
      rollup as (select scope, bucket_seconds, t, attempts, succeeded, failed from attempt_stats)
      (select 'missing', * from direct except select 'missing', * from rollup)
      union all (select 'extra', * from rollup except select 'extra', * from direct)`;
    expect(mismatched).toEqual([]);
    const mismatchedBins = await getSql()`
      with direct as (
        select case when grouping(endpoint_id) = 0 then endpoint_id when grouping(consumer_id) = 0 then consumer_id else '' end as scope,
               case when grouping(minute) = 0 then 60 else 3600 end as bucket_seconds, coalesce(minute, hour) as t, k, count(*)::int as n
        from (select *, date_trunc('minute', created_at, 'UTC') as minute, date_trunc('hour', created_at, 'UTC') as hour,
                     webhook_admin_latency_bucket(duration_ms) as k from attempts) a
        group by grouping sets ((endpoint_id, minute, k), (endpoint_id, hour, k), (consumer_id, minute, k), (consumer_id, hour, k), (minute, k), (hour, k))
      ),
      rollup as (select scope, bucket_seconds, t, k, n from attempt_stats, unnest(latency_buckets, latency_counts) as u(k, n))
      (select 'missing', * from direct except select 'missing', * from rollup)
      union all (select 'extra', * from rollup except select 'extra', * from direct)`;
    expect(mismatchedBins).toEqual([]);
  });

  it("counts an outcome written twice (a commit answer lost) once, and splits since at minutes and hours", async () => {
    const endpointId = ids.b1;
    const at = (minutesAgo: number, durationMs: number, i: number): AttemptOutcome => ({
      attemptId: `att_synthetic_${minutesAgo}_${i}`,
      deliveryId: "dlv_synthetic",
      messageId: "msg_synthetic",
      endpointId,
      consumerId: ids.b,
      attemptNumber: 1,
      trigger: "manual",
      success: i % 2 === 0,
      statusCode: i % 2 === 0 ? 200 : 500,
      error: null,
      errorDetail: null,
      responseBody: "",
      durationMs,
      requestHeaders: {},
      url: "http://127.0.0.1/",
      finishedAt: new Date(Date.now() - minutesAgo * 60_000),
      next: null,
    });
    const outcomes = [300, 185, 150, 121, 119, 95, 61, 30].flatMap((ago, j) => [at(ago, 40 + j * 100, 0), at(ago, 7, 1), at(ago, 900 + j, 2)]);
    const health = { failureThreshold: 1000, openForMs: 30_000, defaultConcurrency: 10 };
    await recordOutcomes(getSql(), { outcomes, health });
    await recordOutcomes(getSql(), { outcomes, health });

    const check = async (sinceMinutesAgo: number) => {
      const since = new Date(Date.now() - sinceMinutesAgo * 60_000 - 20_000);
      const res = await api.get(`/api/v1/endpoints/${endpointId}/stats?since=${since.toISOString()}`);
      expect(res.status).toBe(200);
      const [direct] = await getSql()<{ attempts: number; succeeded: number; failed: number }[]>`
        select count(*)::int as attempts, (count(*) filter (where success))::int as succeeded, (count(*) filter (where not success))::int as failed
        from attempts where endpoint_id = ${endpointId} and created_at >= ${minuteOf(since)}`;
      expect(res.body).toMatchObject({ ...direct, since: minuteOf(since).toISOString(), success_rate: direct!.succeeded / direct!.attempts });
      for (const [p, field] of [[0.5, "p50_ms"], [0.99, "p99_ms"]] as const) {
        const { exact, tolerance } = await exactPercentile({ endpointId, from: minuteOf(since), to: new Date(Date.now() + 60_000) }, p);
        expect(Math.abs(res.body[field] - exact)).toBeLessThanOrEqual(tolerance);
      }
    };
    for (const ago of [240, 150, 120, 60, 10]) await check(ago);
    await foldAll();
    for (const ago of [240, 150, 120, 60, 10]) await check(ago);
  });

  it("GET /stats: by the minute per endpoint, empty minutes as zeros, p50/p99 within bucket precision of percentile_cont", async () => {
    const since = new Date(runStart.getTime() - 10 * 60_000);
    const until = new Date(Date.now() + 60_000);
    const res = await api.get(`/api/v1/stats?endpoint_id=${ids.a2}&since=${since.toISOString()}&until=${until.toISOString()}&bucket=minute`);
    expect(res.status).toBe(200);
    const from = minuteOf(since).getTime();
    const count = Math.ceil(until.getTime() / 60_000) - from / 60_000;
    expect(res.body).toMatchObject({ bucket: "minute", since: new Date(from).toISOString(), until: new Date(from + count * 60_000).toISOString() });
    expect(res.body.data.map((b: { t: string }) => b.t)).toEqual(Array.from({ length: count }, (_, i) => new Date(from + i * 60_000).toISOString()));
    expect(res.body.data.slice(0, 9)).toEqual(
      Array.from({ length: 9 }, (_, i) => ({ t: new Date(from + i * 60_000).toISOString(), attempts: 0, succeeded: 0, failed: 0, p50_ms: null, p99_ms: null })),
    );
    let total = 0;
    for (const bucket of res.body.data as { t: string; attempts: number; succeeded: number; failed: number; p50_ms: number; p99_ms: number }[]) {
      const start = new Date(bucket.t);
      const end = new Date(start.getTime() + 60_000);
      const [direct] = await getSql()<{ attempts: number; succeeded: number }[]>`
        select count(*)::int as attempts, (count(*) filter (where success))::int as succeeded from attempts
        where endpoint_id = ${ids.a2} and created_at >= ${start} and created_at < ${end}`;
      expect(bucket).toMatchObject({ attempts: direct!.attempts, succeeded: direct!.succeeded, failed: direct!.attempts - direct!.succeeded });
      total += bucket.attempts;
      if (bucket.attempts === 0) continue;
      for (const [p, field] of [[0.5, "p50_ms"], [0.99, "p99_ms"]] as const) {
        const { exact, tolerance } = await exactPercentile({ endpointId: ids.a2, from: start, to: end }, p);
        expect(Math.abs(bucket[field] - exact)).toBeLessThanOrEqual(tolerance);
      }
    }
    expect(total).toBeGreaterThan(120);
  });

  it("GET /stats: by consumer (id or uid), for everything, by hour and day, and the defaults", async () => {
    const sql = getSql();
    const directCount = async (where: { consumerId?: string }, from: Date, to: Date) => {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from attempts where created_at >= ${from} and created_at < ${to}
          and (${where.consumerId ?? null}::text is null or consumer_id = ${where.consumerId ?? null})`;
      return row!.n;
    };
    const sum = (data: { attempts: number }[]) => data.reduce((a, b) => a + b.attempts, 0);
    const since = new Date(Date.now() - 5 * 3_600_000);
    for (const [query, consumerId] of [
      [`consumer=stats-a`, ids.a],
      [`consumer=${ids.b}`, ids.b],
      ["", undefined],
    ] as const) {
      for (const bucket of ["hour", "day"] as const) {
        const res = await api.get(`/api/v1/stats?${query}&bucket=${bucket}&since=${since.toISOString()}`);
        expect(res.status).toBe(200);
        expect(res.body.bucket).toBe(bucket);
        expect(sum(res.body.data)).toBe(await directCount({ consumerId }, new Date(res.body.since), new Date(res.body.until)));
      }
    }
    const byEndpoint = await api.get(`/api/v1/stats?consumer=stats-a&endpoint_id=${ids.a1}&bucket=hour&since=${since.toISOString()}`);
    expect(sum(byEndpoint.body.data)).toBe((await sql`select 1 from attempts where endpoint_id = ${ids.a1}`).length);

    const defaults = await api.get("/api/v1/stats");
    expect(defaults.body.bucket).toBe("hour");
    expect(defaults.body.data.length).toBeGreaterThanOrEqual(24);
    expect(defaults.body.data.length).toBeLessThanOrEqual(25);
    expect(new Date(defaults.body.data.at(-1).t).getTime()).toBeLessThanOrEqual(Date.now());
    const short = await api.get(`/api/v1/stats?since=${new Date(Date.now() - 3_600_000).toISOString()}`);
    expect(short.body.bucket).toBe("minute");
    const long = await api.get(`/api/v1/stats?since=${new Date(Date.now() - 30 * 86_400_000).toISOString()}`);
    expect(long.body.bucket).toBe("day");
  });

  it("is scoped: a portal actor sees only its consumer, another consumer's endpoint is 404", async () => {
    const portal: Ctx = openCtx({ type: "portal", id: "ps_test", consumerId: ids.a, capabilities: [] });
    const since = new Date(Date.now() - 5 * 3_600_000);
    await expect(getStats(portal, { endpoint_id: ids.b1 })).rejects.toMatchObject({ status: 404, code: "not_found" });
    await expect(getStats(portal, { consumer: "stats-b" })).rejects.toMatchObject({ status: 404, code: "not_found" });
    const own = await getStats(portal, { since, bucket: "day" });
    const [direct] = await getSql()<{ n: number }[]>`
      select count(*)::int as n from attempts where consumer_id = ${ids.a} and created_at >= ${new Date(own.since)}`;
    expect(own.data.reduce((a, b) => a + b.attempts, 0)).toBe(direct!.n);

    for (const path of [`/api/v1/stats?consumer=stats-a&endpoint_id=${ids.b1}`, "/api/v1/stats?endpoint_id=ep_nope", "/api/v1/stats?consumer=nobody"]) {
      const res = await api.get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.body.code).toBe("not_found");
    }
  });

  it("is folded by the worker that delivered, with no one calling the compaction", async () => {
    const sql = getSql();
    const before = (await sql<{ n: number }[]>`select count(*)::int as n from attempts`)[0]!.n;
    for (let i = 0; i < 20; i++) await sendMessage(api, "stats-a", { event_type: "order.paid", payload: { late: i } });
    await waitFor(async () => (await sql`select 1 from delivery_queue limit 1`).length === 0, { what: "all deliveries ended" });
    expect((await sql<{ n: number }[]>`select count(*)::int as n from attempts`)[0]!.n).toBeGreaterThan(before);
    await waitFor(async () => (await sql`select 1 from attempt_stats_pending limit 1`).length === 0, { what: "the worker's own compaction" });
    expect(await rollupByEndpointMinute()).toEqual(await directByEndpointMinute());
  });

  it("refuses bad input with 400 problem+json", async () => {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    for (const [query, path] of [
      ["bucket=week", "bucket"],
      [`since=${iso(now)}&until=${iso(now - 60_000)}`, "since"],
      [`since=${iso(now)}&until=${iso(now)}`, "since"],
      [`since=${iso(now - 2 * 86_400_000)}&bucket=minute`, "bucket"],
      [`since=${iso(now - 5 * 365 * 86_400_000)}&bucket=day`, "bucket"],
      ["since=yesterday", "since"],
      ["until=2026-02-30T00:00:00Z", "until"],
      ["since=2026-01-01", "since"],
      [`endpoint_id=`, "endpoint_id"],
    ] as const) {
      const res = await api.get(`/api/v1/stats?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect((await api.get(`/api/v1/stats?since=${iso(now - 86_400_000)}&bucket=minute`)).status).toBe(200);
  });
});
