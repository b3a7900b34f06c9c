import { runMigrations } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSql } from "../../lib/db/client";
import { applySqlFunctions } from "../../lib/db/functions";
import { migrateDatabase } from "../../lib/db/migrate";
import { countRows } from "../../lib/db/row-counts";
import { deliveryIdFor, newId } from "../../lib/ids";
import { systemCtx } from "../../lib/open-ctx";
import { runRetention } from "../../lib/retention/run-retention";
import {
  DAY_MS,
  PARTITIONED,
  PROVEN_AHEAD,
  RECOVERY_WEEKS,
  ROLLUP_HOURS,
  ROLLUP_MINUTES,
  dayPartitions,
  makePartitions,
  partitionsOf,
  startOfDay,
} from "../../lib/retention/partitions";
import type { WorkerHandle } from "../../worker/runtime";
import { apiClient } from "../helpers/api";
import { withEnv } from "../helpers/env";
import { consumerWithEndpoints, sendMessage, sendMessages } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";

/**
 * The upgrade to time partitions (migrations 0017, 0019 and 0020, ADR 0034) on a database that has data: the
 * file's database is brought to the schema before it (0016) and filled — through the API and the
 * worker (delivered, and retrying against a receiver that is down) and by SQL (thousands of older
 * messages with their deliveries and attempts) — then migrated by the normal migration. Every
 * table keeps every row; ingest goes on while the migration runs, waiting at most for its catalog
 * changes; afterwards the sweep makes the days ahead without scanning the old rows, old messages
 * read back, retrying ones are still retried, and new ones are delivered; a retried ingest, a resend
 * and a recovery still make one delivery per message and endpoint (the default partition's unique
 * index is the arbiter for the old messages), and the sweep empties the default partitions as their
 * rows pass retention, a message still being delivered last. Then the upgrade from 0019 alone (migration 0020) on a
 * year of rollup rows and recovery runs' items: every row kept, the compaction's upserts waiting
 * only for the catalog changes, the sweep's partitions made after the history.
 */
process.env.DELIVERY_SCHEDULE = "0,1h";
process.env.SWEEP_INTERVAL = "1h";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";

const url = process.env.DATABASE_URL!;
const sql = createSql(url, { max: 2, name: "partition-upgrade" });
let worker: WorkerHandle | null = null;
let api: Awaited<ReturnType<typeof apiClient>>;
let ok: Awaited<ReturnType<typeof startReceiver>>;
let down: Awaited<ReturnType<typeof startReceiver>>;
const OLD_MESSAGES = 6_000;

/**
 * Runs the normal migration while `write` runs again and again, each waiting for the one before;
 * prints how long the migration took and the slowest write (what the migration's locks cost it).
 * Every write must succeed, and at least one runs.
 */
async function migrateWhile(what: string, writes: string, write: () => Promise<unknown>): Promise<{ latencies: number[] }> {
  let migrating = true;
  const latencies: number[] = [];
  const writing = (async () => {
    while (migrating) {
      const started = performance.now();
      await write();
      latencies.push(performance.now() - started);
    }
  })();
  const started = performance.now();
  try {
    await migrateDatabase(url);
  } finally {
    migrating = false;
  }
  const migrationMs = performance.now() - started;
  await writing;
  console.log(`${what}: migration ${migrationMs.toFixed(0)} ms, ${latencies.length} ${writes} meanwhile, slowest ${Math.max(...latencies).toFixed(0)} ms`);
  expect(latencies.length).toBeGreaterThan(0);
  return { latencies };
}

/** The schema as the release that ended with migration `last` left it: drizzle/ up to it, graphile's own schema and the SQL functions. */
async function schemaUpTo(last: number) {
  await sql.unsafe("drop schema public cascade; create schema public; drop schema if exists graphile_worker cascade; drop schema if exists drizzle cascade");
  await migrateDatabase(url, { upTo: last });
  await runMigrations({ connectionString: url });
  // This release's code writes the consumer_id that migration 0021 adds (IF NOT EXISTS): in place
  // beforehand, so that the code can drive the older schema.
  for (const table of ["delivery_queue", "recovery_items", "endpoint_secrets", "recovery_sends"]) {
    await sql.unsafe(`alter table ${table} add column if not exists consumer_id text`);
  }
  // And the destination an endpoint's row holds (migration 0026), which it reads and writes.
  await sql.unsafe(`alter table endpoints add column if not exists destination text not null default 'http', add column if not exists target jsonb`);
  // And an endpoint's filter and a message's filtered endpoints (migration 0027).
  await sql.unsafe(`alter table endpoints add column if not exists filter jsonb`);
  await sql.unsafe(`alter table messages add column if not exists filtered_endpoint_ids text[]`);
  // And ordering and the filter's version (migration 0028): the queue's line columns, and their sequence.
  await sql.unsafe(`alter table endpoints add column if not exists filter_version integer not null default 0, add column if not exists ordering text not null default 'none', add column if not exists ordering_key text`);
  await sql.unsafe(`alter table delivery_queue add column if not exists line_key text, add column if not exists line_seq bigint`);
  await sql.unsafe(`create sequence if not exists delivery_line_seq`);
  // And an event type's schema version and enforcement, its kept versions, and a message's check (migration 0029).
  await sql.unsafe(`alter table event_types add column if not exists schema_version integer not null default 0, add column if not exists enforcement text not null default 'off'`);
  await sql.unsafe(`alter table messages add column if not exists schema_version integer, add column if not exists schema_violations jsonb`);
  await sql.unsafe(
    `create table if not exists event_type_schemas (event_type_id text not null references event_types(id) on delete cascade, version integer not null, schema jsonb, created_at timestamp(3) with time zone not null default now(), primary key (event_type_id, version))`,
  );
  // And a consumer's weight and the claim's rotation (migration 0030), which the claim reads.
  await sql.unsafe(`alter table consumers add column if not exists weight integer not null default 1`);
  await sql.unsafe(`create table if not exists claim_rotation (kind smallint primary key, after_consumer text)`);
  await sql.unsafe(`insert into claim_rotation (kind) values (0), (1), (2) on conflict do nothing`);
  // And a polling endpoint's position and last poll (migration 0033), which every read of an endpoint's row selects.
  await sql.unsafe(`alter table endpoints add column if not exists poll_position text, add column if not exists last_polled_at timestamp(3) with time zone`);
  // And where a rate limit's overflow is booked up to (migration 0034), which the claim reads and writes.
  await sql.unsafe(`alter table endpoints add column if not exists rate_booked_until timestamp(3) with time zone`);
  // Last: the functions' trigger names the queue's line columns.
  await applySqlFunctions(sql);
}

const hourOf = (ms: number) => new Date(Math.floor(ms / 3_600_000) * 3_600_000);

/** Rollup rows of each scope by SQL: an hourly row for every hour from `hoursFrom`, a minute row for every minute from `minutesFrom`, until `to`. */
async function seedRollup(scopes: string[], { hoursFrom, minutesFrom, to }: { hoursFrom: number; minutesFrom: number; to: number }) {
  await sql`
    insert into attempt_stats (scope, bucket_seconds, t, attempts, succeeded, failed, latency_buckets, latency_counts)
    select s, 3600, h, 60, 59, 1, '{5,40}'::smallint[], '{59,1}'::int[] from unnest(${scopes}::text[]) s, generate_series(${hourOf(hoursFrom)}::timestamptz, ${new Date(to)}::timestamptz, '1 hour') h
    union all
    select s, 60, m, 1, 1, 0, '{5}', '{1}' from unnest(${scopes}::text[]) s, generate_series(${hourOf(minutesFrom)}::timestamptz, ${new Date(to)}::timestamptz, '1 minute') m
    on conflict do nothing`;
}

/** A recovery run of `endpointId` that finished, made at `at`, with `items` items. */
async function seedRecovery(consumerId: string, endpointId: string, at: number, items: number) {
  const id = newId("recovery", at);
  await sql`
    insert into recoveries (id, consumer_id, endpoint_id, state, scope, options, expected, succeeded, created_by_type, created_at, finished_at)
    values (${id}, ${consumerId}, ${endpointId}, 'completed',
            ${sql.json({ since: new Date(at - DAY_MS).toISOString(), until: new Date(at).toISOString(), event_types: null, statuses: ["failed"], include_never_attempted: false })},
            ${sql.json({ rate_per_second: 10, canary: 10, stop_if_failure_ratio: 0.5 })}, ${items}, ${items}, 'system', ${new Date(at)}, ${new Date(at + 60_000)})`;
  await sql`
    insert into recovery_items (recovery_id, seq, message_id, endpoint_id, consumer_id, delivery_id, outcome, status_code)
    select ${id}, n, 'msg_' || lpad(n::text, 8, '0'), ${endpointId}, ${consumerId}, 'dlv_' || n, 'succeeded', 200 from generate_series(1, ${items}) n`;
}

beforeAll(async () => {
  await schemaUpTo(16);
  api = await apiClient();
  ok = await startReceiver((_req, res) => res.writeHead(200).end("ok"));
  down = await startReceiver((_req, res) => res.writeHead(503).end("down"));
  worker = await startTestWorker();
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await ok?.close();
  await down?.close();
  await sql.end();
});

const send = (n: number) => sendMessages(api, "up", n);
const attemptsOf = async (ids: string[]) => (await sql<{ n: number }[]>`select count(*)::int as n from attempts where message_id = any(${ids})`)[0]!.n;

describe("upgrading a database with data to time partitions", () => {
  it("keeps every row of every table, blocks ingest only for the catalog changes, and delivers and reads afterwards", async () => {
    expect((await sql<{ kind: string }[]>`select relkind as kind from pg_class where relname = 'messages'`)[0]!.kind).toBe("r");
    const { consumerId, endpoints } = await consumerWithEndpoints(api, [ok.url, down.url], { consumer: { uid: "up", name: "Upgrade" } });
    const [okEndpoint, downEndpoint] = endpoints.map((e) => e.id) as [string, string];
    const early = await send(10);
    // Each message's attempt at each endpoint: delivered to one, failed (and retrying in an hour) at the other.
    await waitFor(async () => (await attemptsOf(early)) === 20, { what: "the first attempts" });

    // Older traffic by SQL: a message a minute back over three days, each delivered with one attempt.
    const now = Date.now();
    const rows = Array.from({ length: OLD_MESSAGES }, (_, i) => {
      const at = now - 3 * DAY_MS + i * Math.floor((3 * DAY_MS - 3_600_000) / OLD_MESSAGES);
      return { at, id: newId("message", at), delivery: newId("delivery", at), attempt: newId("attempt", at + 500) };
    });
    await sql`
      insert into messages (id, consumer_id, event_type, payload, created_at)
      select unnest(${rows.map((r) => r.id)}::text[]), ${consumerId}, 'invoice.paid', '{"old":true}', unnest(${rows.map((r) => new Date(r.at).toISOString())}::timestamptz[])`;
    await sql`
      insert into deliveries (id, message_id, endpoint_id, consumer_id, status, attempts, created_at)
      select unnest(${rows.map((r) => r.delivery)}::text[]), unnest(${rows.map((r) => r.id)}::text[]), ${okEndpoint}, ${consumerId}, 'succeeded', 1,
             unnest(${rows.map((r) => new Date(r.at).toISOString())}::timestamptz[])`;
    await sql`
      insert into attempts (id, delivery_id, message_id, endpoint_id, consumer_id, attempt_number, trigger, success, status_code, duration_ms, created_at)
      select unnest(${rows.map((r) => r.attempt)}::text[]), unnest(${rows.map((r) => r.delivery)}::text[]), unnest(${rows.map((r) => r.id)}::text[]),
             ${okEndpoint}, ${consumerId}, 1, 'scheduled', true, 200, 7, unnest(${rows.map((r) => new Date(r.at + 500).toISOString())}::timestamptz[])`;
    // The rollup of those three days (hourly and minute rows) and a finished recovery run's items.
    await seedRollup([okEndpoint, consumerId, ""], { hoursFrom: now - 3 * DAY_MS, minutesFrom: now - 3 * DAY_MS, to: now - 2 * 3_600_000 });
    await seedRecovery(consumerId, okEndpoint, now - DAY_MS, 500);
    await worker!.stop();
    worker = null;
    const countsBefore = await countRows(sql);
    expect(countsBefore.attempt_stats).toBeGreaterThan(3 * 70 * 60);
    expect(countsBefore.recovery_items).toBe(500);
    expect(countsBefore.messages).toBe(OLD_MESSAGES + 10);

    // The migration, with ingest going on: every request answered 202, and the slowest waited
    // about as long as the migration's transaction.
    const { latencies } = await migrateWhile(`partition upgrade of ${OLD_MESSAGES + 10} messages`, "ingests", () =>
      sendMessage(api, "up", { payload: { during: true } }),
    );

    // Every row is still there (the ingests made meanwhile added messages and deliveries only).
    const countsAfter = await countRows(sql);
    const during = latencies.length;
    const grew: Record<string, number> = { messages: during, deliveries: 2 * during, delivery_queue: 2 * during };
    for (const [table, n] of Object.entries(countsBefore)) expect(countsAfter[table], table).toBe(n + (grew[table] ?? 0));
    for (const table of [...PARTITIONED.map((p) => p.table), "attempt_stats", "recovery_items"]) {
      expect((await sql<{ kind: string }[]>`select relkind as kind from pg_class where relname = ${table}`)[0]!.kind, table).toBe("p");
      const [inDefault] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(`${table}_default`)}`;
      expect(inDefault!.n, table).toBe(countsAfter[table]);
    }

    // The sweep's days start after the default partition's newest row, proven free of old rows by a
    // constraint it validates online and drops again.
    const made = await makePartitions({ ctx: systemCtx() });
    expect(made.length).toBeGreaterThan(0);
    const days = await dayPartitions(sql, "messages");
    expect(days[0]!.day).toBeGreaterThan(startOfDay(Date.now()));
    expect((await dayPartitions(sql, "deliveries"))[0]!.day).toBeGreaterThan(startOfDay(Date.now()));
    // While the default partition holds the history, the days are made PROVEN_AHEAD at once (each
    // proof reads all of it).
    expect(days.at(-1)!.day).toBe(startOfDay(Date.now()) + PROVEN_AHEAD * DAY_MS);
    // Likewise the rollup's minute days and hourly months, and the recovery runs' weeks.
    for (const series of [ROLLUP_MINUTES, ROLLUP_HOURS, RECOVERY_WEEKS]) {
      for (const p of await partitionsOf(sql, series)) expect(p.start, p.name).toBeGreaterThan(Date.now());
    }
    expect(await partitionsOf(sql, ROLLUP_MINUTES)).not.toEqual([]);
    expect((await sql`select 1 from pg_constraint where conname like '%_default_bound'`).length).toBe(0);

    // Afterwards: old messages read back with their attempts, the retrying ones are retried, new
    // ones are delivered.
    worker = await startTestWorker();
    const old = await api.get(`/api/v1/messages/${rows[0]!.id}`);
    expect(old.status).toBe(200);
    expect(old.body.payload).toEqual({ old: true });
    const oldAttempts = await api.get(`/api/v1/messages/${rows[0]!.id}/attempts`);
    expect(oldAttempts.body.data.map((a: { id: string }) => a.id)).toEqual([rows[0]!.attempt]);
    const list = await api.get("/api/v1/messages?consumer=up&limit=100");
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(100);
    const later = await send(5);
    await waitFor(async () => (await attemptsOf(later)) === 10, { what: "the new messages' attempts" });
    const [statuses] = await sql<{ ok: number }[]>`
      select count(*) filter (where status = 'succeeded')::int as ok from deliveries where message_id = any(${later})`;
    expect(statuses!.ok).toBe(5);
    // One delivery per message and endpoint still. A retried ingest (the same Idempotency-Key) is the
    // same message with the same deliveries.
    const key = { "idempotency-key": "upgrade-retry" };
    const first = await sendMessage(api, "up", { payload: { retried: true } }, key);
    const again = await sendMessage(api, "up", { payload: { retried: true } }, key);
    expect(again.id).toBe(first.id);
    const deliveriesOf = (message: string) =>
      sql<{ id: string; endpoint_id: string; p: string }[]>`
        select id, endpoint_id, tableoid::regclass::text as p from deliveries where message_id = ${message} order by endpoint_id`;
    expect(await deliveriesOf(first.id)).toHaveLength(2);
    // An old message (in the default partition): a resend to its endpoint reuses its delivery; two
    // resends at once to the endpoint it never had make one, in the default partition too.
    const oldOne = rows[0]!;
    expect((await api.post(`/api/v1/messages/${oldOne.id}/resend`, { endpoint_id: okEndpoint })).body.delivery_id).toBe(oldOne.delivery);
    const resends = await Promise.all([0, 1].map(() => api.post(`/api/v1/messages/${oldOne.id}/resend`, { endpoint_id: downEndpoint })));
    for (const r of resends) expect(r.status, r.text).toBe(202);
    const resent = (await deliveriesOf(oldOne.id)).filter((d) => d.endpoint_id === downEndpoint);
    expect(resent).toEqual([{ id: resends[0]!.body.delivery_id, endpoint_id: downEndpoint, p: "deliveries_default" }]);
    expect(resends[1]!.body.delivery_id).toBe(resent[0]!.id);
    // A recovery that takes another old message for the endpoint it never had, then a resend of it.
    const oldTwo = rows[1]!;
    const run = await api.post(`/api/v1/endpoints/${downEndpoint}/recover`, {
      since: new Date(oldTwo.at - 1000).toISOString(),
      until: new Date(oldTwo.at + 1000).toISOString(),
      include_never_attempted: true,
      rate_per_second: 1000,
    });
    expect(run.status, run.text).toBe(202);
    await waitFor(async () => (await sql`select 1 from recovery_items where recovery_id = ${run.body.id} and outcome <> 'pending'`).length > 0, {
      what: "the recovery's item queued",
    });
    const recovered = (await deliveriesOf(oldTwo.id)).filter((d) => d.endpoint_id === downEndpoint);
    expect(recovered).toEqual([{ id: expect.any(String), endpoint_id: downEndpoint, p: "deliveries_default" }]);
    expect((await api.post(`/api/v1/messages/${oldTwo.id}/resend`, { endpoint_id: downEndpoint })).body.delivery_id).toBe(recovered[0]!.id);
    await expect(
      sql`insert into deliveries (id, message_id, endpoint_id, consumer_id) values (${deliveryIdFor(oldTwo.id)}, ${oldTwo.id}, ${downEndpoint}, ${consumerId})`,
    ).rejects.toMatchObject({ code: "23505" });

    // A delivery in the default partition still has to name a message that exists (0017's key stays
    // on it; day partitions have none, ADR 0034).
    await expect(
      sql`insert into deliveries (id, message_id, endpoint_id, consumer_id) values (${newId("delivery")}, 'msg_missing', ${okEndpoint}, ${consumerId})`,
    ).rejects.toMatchObject({ code: "23503" });
  });
});

describe("the default partitions after the upgrade", () => {
  // Runs on what the test above left: the history in the default partitions, a message still
  // retrying at the endpoint that is down, a recovery run.
  const DEFAULTS = [...PARTITIONED.map((p) => p.table), "attempt_stats", "recovery_items"].map((table) => `${table}_default`);
  const inDefaults = async () => {
    const counts: Record<string, number> = {};
    for (const name of DEFAULTS) {
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(name)}`;
      if (row!.n > 0) counts[name] = row!.n;
    }
    return counts;
  };
  const retention = { RETENTION_PERIOD: "1s", STATS_RETENTION: "1s", STATS_MINUTE_RETENTION: "1s", AUDIT_RETENTION: "1s" };
  const sweep = () =>
    withEnv(retention, async () => {
      // Every row is older than the period; the sweep goes on while it has more to do.
      await sql`select pg_sleep(1.1)`;
      while ((await runRetention({ ctx: systemCtx() })).more);
    });

  it("empties them as their rows pass retention: a message still being delivered stays until it ends", async () => {
    await worker?.stop();
    worker = null;
    expect(Object.keys(await inDefaults())).toEqual(expect.arrayContaining(["messages_default", "deliveries_default", "attempts_default"]));
    await sweep();
    // What is left is the messages still being delivered — a delivery pending, or work queued (a
    // resend of a delivery that succeeded) — and what they hold.
    const pending = await sql<{ id: string }[]>`
      select distinct m.id from messages_default m join deliveries d on d.message_id = m.id
      where d.status = 'pending' or exists (select 1 from delivery_queue q where q.delivery_id = d.id)`;
    expect(pending.length).toBeGreaterThan(0);
    expect((await inDefaults()).messages_default).toBe(pending.length);
    // They end — their endpoint deleted, its deliveries go; its recovery run canceled — and the
    // next sweep takes them.
    for (const { id } of await sql<{ id: string }[]>`
      select distinct endpoint_id as id from deliveries d where status = 'pending' or exists (select 1 from delivery_queue q where q.delivery_id = d.id)`) {
      const res = await api.del(`/api/v1/endpoints/${id}`);
      expect(res.status, res.text).toBe(204);
    }
    for (const { id } of await sql<{ id: string }[]>`select id from recoveries where finished_at is null`) {
      const res = await api.post(`/api/v1/recoveries/${id}/cancel`, {});
      expect(res.status, res.text).toBe(200);
    }
    await sweep();
    expect(await inDefaults()).toEqual({});
  }, 60_000);
});

describe("upgrading from 0019 a database with a year of rollup and recovery items (migration 0020)", () => {
  it("keeps every row, blocks the compaction's writes only for the catalog changes, and partitions the rollup and the items afterwards", async () => {
    await worker?.stop();
    worker = null;
    await schemaUpTo(19);
    api = await apiClient();
    const now = Date.now();
    const { consumerId, endpoints } = await consumerWithEndpoints(api, ["http://127.0.0.1:9/a", "http://127.0.0.1:9/b"], { prefix: "up19" });
    // 20 scopes: a year and a month of hourly rows, eight days of minute rows (STATS_RETENTION and
    // STATS_MINUTE_RETENTION's defaults), and runs with 50,000 items.
    const scopes = ["", consumerId, ...endpoints.map((e) => e.id), ...Array.from({ length: 17 }, (_, i) => `ep_gone${i}`)];
    await seedRollup(scopes, { hoursFrom: now - 400 * DAY_MS, minutesFrom: now - 8 * DAY_MS, to: now - 3_600_000 });
    for (let i = 0; i < 5; i++) await seedRecovery(consumerId, endpoints[0]!.id, now - (i + 1) * 3 * DAY_MS, 10_000);
    const countsBefore = await countRows(sql);
    expect(countsBefore.attempt_stats).toBeGreaterThan(400_000);
    expect(countsBefore.recovery_items).toBe(50_000);

    // The compaction's upsert into the current minute, again and again while the migration runs.
    await migrateWhile(`migration 0020 with ${countsBefore.attempt_stats} rollup rows and ${countsBefore.recovery_items} recovery items`, "rollup upserts", async () => {
      await sql`
        insert into attempt_stats (scope, bucket_seconds, t, attempts, succeeded, failed, latency_buckets, latency_counts)
        values ('', 60, date_trunc('minute', now()), 1, 1, 0, '{5}', '{1}')
        on conflict (scope, bucket_seconds, t) do update set attempts = attempt_stats.attempts + 1, succeeded = attempt_stats.succeeded + 1`;
    });

    const countsAfter = await countRows(sql);
    // The upserts meanwhile added at most the current minute's row (or two, across a minute's end).
    expect(countsAfter.attempt_stats! - countsBefore.attempt_stats!).toBeLessThanOrEqual(2);
    for (const [table, n] of Object.entries(countsBefore)) if (table !== "attempt_stats") expect(countsAfter[table], table).toBe(n);
    for (const table of ["attempt_stats", "recovery_items"]) {
      expect((await sql<{ kind: string }[]>`select relkind as kind from pg_class where relname = ${table}`)[0]!.kind, table).toBe("p");
      expect((await sql<{ n: number }[]>`select count(*)::int as n from ${sql(`${table}_default`)}`)[0]!.n, table).toBe(countsAfter[table]);
    }

    // The sweep's partitions start after the default partition's newest rows of each series; the
    // rollup's retention then drops nothing whole yet (all of it is in the default partition) and
    // trims what is past, in batches.
    await makePartitions({ ctx: systemCtx() });
    const minutes = await partitionsOf(sql, ROLLUP_MINUTES);
    expect(minutes[0]!.start).toBeGreaterThan(now);
    expect(minutes.at(-1)!.start).toBe(startOfDay(Date.now()) + PROVEN_AHEAD * DAY_MS);
    // A month of hourly rows is made once it is PROVEN_AHEAD days away, a week of items likewise.
    for (const series of [ROLLUP_HOURS, RECOVERY_WEEKS]) for (const p of await partitionsOf(sql, series)) expect(p.start, p.name).toBeGreaterThan(now);
    expect(await partitionsOf(sql, RECOVERY_WEEKS)).not.toEqual([]);
    // GET /stats reads the default partition's history as before.
    const stats = await api.get(`/api/v1/stats?since=${new Date(now - 7 * DAY_MS).toISOString()}&until=${new Date(now - 6 * DAY_MS).toISOString()}&bucket=hour`);
    expect(stats.status, stats.text).toBe(200);
    expect(stats.body.data.map((b: { attempts: number }) => b.attempts)).toEqual(stats.body.data.map(() => 60));
  }, 180_000);
});
